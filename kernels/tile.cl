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
// includes chunk.cl first (CAT).

#define TW (WGX * BX)           // tile width in output pixels
#define TH (WGY * BY)           // tile height in output rows
#define TROWS (TH + KSIZE - 1)  // tile rows including the halo

#define FILL_ROW_STEPS ((TROWS + WGY - 1) / WGY)
#define FILL_COL_STEPS ((FILL_BYTES + WGX * FILL_VEC - 1) / (WGX * FILL_VEC))
#if FILL_VEC == 1
#define FILL_COPY(s, t) (*(t) = convert_float(*(s)))
#else
#define FILL_COPY(s, t) \
  CAT(vstore, FILL_VEC)(CAT(convert_float, FILL_VEC)(CAT(vload, FILL_VEC)(0, (s))), 0, (t))
#endif

// Copies the tile whose top-left pixel is (ox, oy) into local memory as floats. Work-groups whose tile
// lies inside the frame copy without any border arithmetic; the others resolve rows once per row and
// columns only for the fill steps that actually leave the frame.
inline void fill_tile(__local float* tile, __global const uchar* src, int width, int height, int ox, int oy,
                      int lx, int ly, float4 border_value) {
  const int rowb = width * 3;
  if (ox >= 0 && oy >= 0 && ox * 3 + FILL_BYTES <= rowb && oy + TROWS <= height) {
    // Fixed trip counts, fully unrolled: addresses become immediate offsets, no loop overhead per value.
    __global const uchar* s = src + (oy + ly) * rowb + ox * 3 + lx * FILL_VEC;
    __local float* t = tile + ly * TSTRIDE + lx * FILL_VEC;
#pragma unroll
    for (int q = 0; q < FILL_ROW_STEPS; ++q) {
      if (ly + q * WGY >= TROWS) break;
#pragma unroll
      for (int k = 0; k < FILL_COL_STEPS; ++k)
        if (lx * FILL_VEC + k * (WGX * FILL_VEC) < FILL_BYTES)
          FILL_COPY(s + q * WGY * rowb + k * (WGX * FILL_VEC),
                    t + q * (WGY * TSTRIDE) + k * (WGX * FILL_VEC));
    }
    return;
  }
  const float bv[3] = {border_value.x, border_value.y, border_value.z};
  for (int r = ly; r < TROWS; r += WGY) {
    const int by = border_index(oy + r, height);
    __local float* trow = tile + r * TSTRIDE;
#if BORDER_MODE == BORDER_CONSTANT
    if (by < 0) {  // a whole row outside the frame
      for (int c = lx; c < FILL_BYTES; c += WGX) trow[c] = bv[c % 3];
      continue;
    }
#endif
    __global const uchar* srow = src + by * rowb;
    for (int c = lx * FILL_VEC; c < FILL_BYTES; c += WGX * FILL_VEC) {
      if (ox + c / 3 >= 0 && ox + (c + FILL_VEC - 1) / 3 < width) {
        FILL_COPY(srow + ox * 3 + c, trow + c);
      } else {
        for (int e = 0; e < FILL_VEC; ++e) {
          const int b = c + e;
          const int bx = border_index(ox + b / 3, width);
          trow[b] = bx < 0 ? bv[b % 3] : convert_float(srow[bx * 3 + b % 3]);
        }
      }
    }
  }
}
