// SPDX-License-Identifier: MIT
// tiled.cl — register tiling: a work-group stages its tile (+halo) once in local memory as floats, then each
// work-item computes a BY×BX block of output pixels from it, reusing every loaded value across the block.
//
// The tile keeps the frame's interleaved layout (R G B R G B …), so filling it is a contiguous, coalesced
// copy and a block of BX pixels is 3·BX consecutive floats: three BX-wide vectors ("chunks"). Lane e of chunk
// v is channel (BX·v + e) % 3, so each tap multiplies by a vector holding the R, G, B weights in that
// pattern; the host lays them out so (kernel argument `wpat`: [K·K taps][3 chunks][BX], aligned vectors).
//
// The chunk macros come from chunk.cl, the tile geometry and fill_tile from tile.cl.
// Build options (besides BORDER_MODE, KSIZE, RADIUS from common.cl):
//   -DBX=4|8|16     pixels per work-item in x (3 vectors of BX floats)
//   -DBY=n          rows per work-item
//   -DWGX -DWGY     work-group shape (the launch must use it: reqd_work_group_size)
//   -DFILL_VEC=1|4|8|16  bytes per fill step (1: coalesced byte loads for GPUs; 16: wide loads for CPUs)
//   -DROW_LOOP=0|1  1 (CPUs): run-time loop over filter rows, one weight vector per tap serving BY rows.
//                   Fully unrolled code compiles slowly on CPUs (K = 15: half a minute) and, in one huge
//                   block, LLVM's x86 back end hoists every load to the top and spills them all.
//                   0 (GPUs): fully unrolled in input-row order, each row reused for the whole block.
//   -DSEG_LOAD=0|1  with ROW_LOOP=0: 1 loads each tile row segment with aligned vload4 into registers and
//                   slides the windows there; 0 reads every window with an unaligned vload
//   -DTSTRIDE       floats per tile row (≥ FILL_BYTES, multiple of 4)
//   -DFILL_BYTES    floats filled per tile row (3·(TW+K−1) rounded up to FILL_VEC)
//   -DSEGLEN        floats of one work-item's row segment (3·BX + 3·(K−1) rounded up to 4)
//   -DFAST_STORE=0|1  1 (CPUs): round with a magic-number add and store each chunk with one unaligned vector
//                 store; 0 (GPUs): convert_uchar_sat_rte and vstore

#define CHUNK BX
#include "chunk.cl"
#include "tile.cl"

__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1))) void convolve_tiled(
    __global const uchar* src, __global uchar* dst, int width, int height,
    __constant float* wpat,  // [K·K taps][3 chunks][BX]: weights (matrix / divisor) in the chunks' pattern
    float4 offset, float4 border_value) {
  __local float tile[TROWS * TSTRIDE] __attribute__((aligned(16)));
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int gx0 = get_group_id(0) * TW, gy0 = get_group_id(1) * TH;
  fill_tile(tile, src, width, height, gx0 - RADIUS, gy0 - RADIUS, lx, ly, border_value);
  barrier(CLK_LOCAL_MEM_FENCE);

  const int x0 = gx0 + lx * BX, y0 = gy0 + ly * BY;
  if (x0 >= width || y0 >= height) return;

  VEC acc[BY][3];
#pragma unroll
  for (int o = 0; o < BY; ++o)
#pragma unroll
    for (int v = 0; v < 3; ++v) acc[o][v] = offset_chunk(offset, v);

  __local const float* t = tile + ly * BY * TSTRIDE + lx * 3 * BX;
#if ROW_LOOP
  // CPUs: a run-time loop over filter rows; windows are read straight from the tile.
  ACCUMULATE_ROW_LOOP(acc, BY, t, TSTRIDE)
#else
  // GPUs: input-row order, fully unrolled: each tile row's windows are loaded once and serve every output row
  // of the block; weight indices are compile-time constants (constant-bank operands).
#pragma unroll
  for (int rr = 0; rr < BY + KSIZE - 1; ++rr) {
    __local const float* trow = t + rr * TSTRIDE;
#if SEG_LOAD
    float seg[SEGLEN];
#pragma unroll
    for (int q = 0; q < SEGLEN / 4; ++q) vstore4(vload4(q, trow), q, seg);
#define WINDOW(off) VLOAD(0, seg + (off))
#else
#define WINDOW(off) VLOAD(0, trow + (off))
#endif
#pragma unroll
    for (int i = 0; i < KSIZE; ++i) {
#pragma unroll
      for (int v = 0; v < 3; ++v) {
        const VEC win = WINDOW(3 * i + BX * v);
#pragma unroll
        for (int o = 0; o < BY; ++o) {
          const int j = rr - o;  // filter row this input row is for output row o
          if (j >= 0 && j < KSIZE) acc[o][v] = fma(win, WEIGHTS(j, i, v), acc[o][v]);
        }
      }
    }
#undef WINDOW
  }
#endif

  const int rowb = width * 3;
#pragma unroll
  for (int o = 0; o < BY; ++o) {
    if (y0 + o >= height) break;
    store_chunks(dst + (y0 + o) * rowb + x0 * 3, width - x0, acc[o][0], acc[o][1], acc[o][2]);
  }
}
