// SPDX-License-Identifier: MIT
// vector.cl — each work-item computes VY rows × VX consecutive pixels straight from global memory with
// vector loads and stores; no local memory. Float math runs on VX-wide vectors.
//
// A row of VX pixels is 3·VX interleaved bytes (R G B R G B …) = three VX-wide vectors ("chunks"); lane e of
// chunk v is channel (VX·v + e) % 3, so each tap multiplies by a vector holding the R, G, B weights in that
// pattern (laid out by the host: kernel argument `wpat`, [K·K taps][3 chunks][VX]). The row segment a
// work-item reads, halo included, is SEGB = 3·(VX + K − 1) bytes.
//
// Build options (besides BORDER_MODE, KSIZE, RADIUS from common.cl):
//   -DVX=4|8|16   pixels per work-item in x          -DVY=n   rows per work-item
//   -DROW_LOOP=1  CPUs: the rows are converted once into a private buffer, then a run-time loop over filter
//                 rows. Fully unrolled code compiles slowly on CPUs (K = 15: minutes with both paths) and, in
//                 one huge block, LLVM's x86 back end hoists every load to the top and spills them all.
//   -DROW_LOOP=0  GPUs: fully unrolled in input-row order; each row segment is converted into registers once
//                 and serves every output row of the block; weights become constant-bank operands
//   -DFAST_STORE=0|1  1 (CPUs): round with a magic-number add and store each chunk with one unaligned vector
//                 store; 0 (GPUs): convert_uchar_sat_rte and vstore
// Work-items whose window lies inside the frame load with plain vloads; the others resolve borders per pixel.

#define CHUNK VX
#include "chunk.cl"  // VEC, VLOAD, VSTORE, TO_FLOAT, STORE_CHUNK, LOAD_CHUNK, WEIGHTS, ACCUMULATE_ROW_LOOP

// Helpers whose arguments must become compile-time constants (row numbers, array indices) after unrolling.
#define ALWAYS_INLINE inline __attribute__((always_inline))

#define SEGB (3 * (VX + KSIZE - 1))  // bytes (and floats) of one row segment, halo included
#define ROWS (VY + KSIZE - 1)        // input rows a work-item reads

// Converts the row segment that starts at `s` (inside the frame) to floats: VX-byte chunks, the last one
// overlapping the previous so nothing past the segment is read.
ALWAYS_INLINE void load_segment(float* seg, __global const uchar* s) {
#pragma unroll
  for (int q = 0; q + VX <= SEGB; q += VX) VSTORE(TO_FLOAT(LOAD_CHUNK(s + q)), 0, seg + q);
  if (SEGB % VX) VSTORE(TO_FLOAT(LOAD_CHUNK(s + SEGB - VX)), 0, seg + SEGB - VX);
}

// Same with the border rule (work-items near the edges): row `y`, pixels x0 − RADIUS … x0 + VX + RADIUS − 1.
ALWAYS_INLINE void gather_segment(float* seg, __global const uchar* src, int x0, int y, int width, int height,
                                  float3 border_value) {
#pragma unroll
  for (int p = 0; p < VX + KSIZE - 1; ++p)
    vstore3(load_rgb(src, x0 - RADIUS + p, y, width, height, border_value), p, seg);
}

// Adds input row `rr` of the work-item's window (rr: a compile-time constant after unrolling) to every output
// row it contributes to; `seg` holds the row's SEGB values as floats.
ALWAYS_INLINE void accumulate_row(VEC acc[VY][3], const float* seg, int rr, __constant float* wpat) {
#pragma unroll
  for (int i = 0; i < KSIZE; ++i) {
#pragma unroll
    for (int v = 0; v < 3; ++v) {
      const VEC win = VLOAD(0, seg + 3 * i + VX * v);
#pragma unroll
      for (int o = 0; o < VY; ++o) {
        const int j = rr - o;  // filter row this input row is for output row o
        if (j >= 0 && j < KSIZE) acc[o][v] = fma(win, WEIGHTS(j, i, v), acc[o][v]);
      }
    }
  }
}

__kernel void convolve_vector(
    __global const uchar* src, __global uchar* dst, int width, int height,
    __constant float* wpat,  // [K·K taps][3 chunks][VX]: weights in the chunks' pattern
    float4 offset, float4 border_value) {
  const int x0 = get_global_id(0) * VX, y0 = get_global_id(1) * VY;
  if (x0 >= width || y0 >= height) return;
  const int rowb = width * 3;
  const bool interior =
      x0 >= RADIUS && y0 >= RADIUS && x0 + VX + RADIUS <= width && y0 + VY + RADIUS <= height;
  __global const uchar* s = src + (y0 - RADIUS) * rowb + (x0 - RADIUS) * 3;  // used only when interior

  VEC acc[VY][3];
#pragma unroll
  for (int o = 0; o < VY; ++o)
#pragma unroll
    for (int v = 0; v < 3; ++v) acc[o][v] = offset_chunk(offset, v);

#if ROW_LOOP
  // CPUs: the work-item's input rows, converted once into a private buffer, then a run-time loop over filter
  // rows; one weight vector serves the block's VY rows. Small loop bodies compile fast and without spills.
  float rows[ROWS * SEGB];
  if (interior) {
    for (int rr = 0; rr < ROWS; ++rr) load_segment(rows + rr * SEGB, s + rr * rowb);
  } else {
    for (int rr = 0; rr < ROWS; ++rr)
      gather_segment(rows + rr * SEGB, src, x0, y0 - RADIUS + rr, width, height, border_value.xyz);
  }
  ACCUMULATE_ROW_LOOP(acc, VY, rows, SEGB)
#else
#pragma unroll
  for (int rr = 0; rr < ROWS; ++rr) {
    // GPUs: each row segment is converted into registers once; only these loads differ between interior and
    // edge work-items, the arithmetic is shared (no divergence in it).
    float seg[SEGB];
    if (interior)
      load_segment(seg, s + rr * rowb);
    else
      gather_segment(seg, src, x0, y0 - RADIUS + rr, width, height, border_value.xyz);
    accumulate_row(acc, seg, rr, wpat);
  }
#endif

#pragma unroll
  for (int o = 0; o < VY; ++o) {
    if (y0 + o >= height) break;
    store_chunks(dst + (y0 + o) * rowb + x0 * 3, width - x0, acc[o][0], acc[o][1], acc[o][2]);
  }
}
