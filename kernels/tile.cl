// SPDX-License-Identifier: MIT
// tile.cl — fragment (#include "tile.cl"): a work-group's tile in local memory and how it is filled, shared by
// tiled.cl and codegen.cl (host side: core/src/tile_shape.hpp computes the same geometry).
//
// The tile keeps the frame's interleaved layout (R G B R G B …) as floats, so filling it is a contiguous,
// coalesced copy. A work-group of WGX×WGY work-items, each computing a BY×BX block of output pixels, covers
// TW×TH outputs and reads TROWS rows of the frame.
//
// The including kernel defines (as -D options or #defines): BX, BY, WGX, WGY; FILL_VEC (1|4|8|16: bytes per
// fill step, 1: coalesced byte loads for GPUs, 16: wide loads for CPUs); TSTRIDE (floats per tile row, ≥
// FILL_BYTES, multiple of 4); FILL_BYTES (floats filled per tile row: 3·(TW+K−1) rounded up to FILL_VEC); and
// includes chunk.cl first (CAT, BYTE_TO_FLOAT).

#define TW (WGX * BX)           // tile width in output pixels
#define TH (WGY * BY)           // tile height in output rows
#define TROWS (TH + KSIZE - 1)  // tile rows including the halo

#define FILL_ROW_STEPS ((TROWS + WGY - 1) / WGY)
#define FILL_COL_STEPS ((FILL_BYTES + WGX * FILL_VEC - 1) / (WGX * FILL_VEC))
// Loads are never inside a conditional block: a guarded load cannot be issued before its guard is known,
// so a work-item's ~40 fill loads would wait for memory one after another (on an H100 that serial chain in
// the edge work-groups was ~5 µs of every kernel: docs/BENCHMARKS.md, 2026-11-23). Every step loads
// from an address inside the frame
// (clamped), all loads of a work-item are issued in one block, and only the stores are guarded.
#define FILL_STEPS (FILL_ROW_STEPS * FILL_COL_STEPS)
#if FILL_VEC == 1
typedef uchar fill_bytes;
#define FILL_LOAD(s) (*(s))
#define FILL_STORE(b, t) (*(t) = BYTE_TO_FLOAT((uint)(b)))
#else
typedef CAT(uchar, FILL_VEC) fill_bytes;
#define FILL_LOAD(s) CAT(vload, FILL_VEC)(0, (s))
#define FILL_STORE(b, t) CAT(vstore, FILL_VEC)(CAT(convert_float, FILL_VEC)(b), 0, (t))
#endif

// Copies the tile whose top-left pixel is (ox, oy) into local memory as floats. Work-groups whose tile
// lies inside the frame copy without any border arithmetic; the others resolve every index through
// border_index (under BORDER_CONSTANT the border value replaces what was loaded, after the load).
inline void fill_tile(__local float* tile, __global const uchar* src, int width, int height, int ox, int oy,
                      int lx, int ly, float4 border_value) {
  const int rowb = width * 3;
  __local float* t = tile + ly * TSTRIDE + lx * FILL_VEC;
  fill_bytes v[FILL_STEPS];
  if (ox >= 0 && oy >= 0 && ox * 3 + FILL_BYTES <= rowb && oy + TROWS <= height) {
    // Fixed trip counts, fully unrolled: addresses become immediate offsets, no loop overhead per value.
    __global const uchar* s = src + oy * rowb + ox * 3;
#pragma unroll
    for (int q = 0; q < FILL_ROW_STEPS; ++q)
#pragma unroll
      for (int k = 0; k < FILL_COL_STEPS; ++k)
        v[q * FILL_COL_STEPS + k] = FILL_LOAD(s + min(ly + q * WGY, TROWS - 1) * rowb +
                                              min(lx * FILL_VEC + k * (WGX * FILL_VEC), FILL_BYTES - FILL_VEC));
#pragma unroll
    for (int q = 0; q < FILL_ROW_STEPS; ++q)
#pragma unroll
      for (int k = 0; k < FILL_COL_STEPS; ++k)
        if (ly + q * WGY < TROWS && lx * FILL_VEC + k * (WGX * FILL_VEC) < FILL_BYTES)
          FILL_STORE(v[q * FILL_COL_STEPS + k], t + q * (WGY * TSTRIDE) + k * (WGX * FILL_VEC));
    return;
  }
#pragma unroll
  for (int q = 0; q < FILL_ROW_STEPS; ++q) {
    __global const uchar* srow = src + max(border_index(oy + min(ly + q * WGY, TROWS - 1), height), 0) * rowb;
#pragma unroll
    for (int k = 0; k < FILL_COL_STEPS; ++k) {
      const int c = min(lx * FILL_VEC + k * (WGX * FILL_VEC), FILL_BYTES - FILL_VEC);
#if FILL_VEC > 1
      if (ox + c / 3 >= 0 && ox + (c + FILL_VEC - 1) / 3 < width) {  // CPUs: a whole vector inside the frame
        v[q * FILL_COL_STEPS + k] = FILL_LOAD(srow + ox * 3 + c);
        continue;
      }
#endif
      uchar b[FILL_VEC];
#pragma unroll
      for (int e = 0; e < FILL_VEC; ++e)
        b[e] = srow[max(border_index(ox + (c + e) / 3, width), 0) * 3 + (c + e) % 3];
#if FILL_VEC == 1
      v[q * FILL_COL_STEPS + k] = b[0];
#else
      v[q * FILL_COL_STEPS + k] = CAT(vload, FILL_VEC)(0, b);
#endif
    }
  }
#pragma unroll
  for (int q = 0; q < FILL_ROW_STEPS; ++q)
#pragma unroll
    for (int k = 0; k < FILL_COL_STEPS; ++k)
      if (ly + q * WGY < TROWS && lx * FILL_VEC + k * (WGX * FILL_VEC) < FILL_BYTES) {
        __local float* d = t + q * (WGY * TSTRIDE) + k * (WGX * FILL_VEC);
        FILL_STORE(v[q * FILL_COL_STEPS + k], d);
#if BORDER_MODE == BORDER_CONSTANT
        const int c = lx * FILL_VEC + k * (WGX * FILL_VEC), r = oy + ly + q * WGY;
        if (r < 0 || r >= height || ox + c / 3 < 0 || ox + (c + FILL_VEC - 1) / 3 >= width) {
          const float bv[3] = {border_value.x, border_value.y, border_value.z};
          for (int e = 0; e < FILL_VEC; ++e) {
            const int x = ox + (c + e) / 3;
            if (r < 0 || r >= height || x < 0 || x >= width) d[e] = bv[(c + e) % 3];
          }
        }
#endif
      }
}
