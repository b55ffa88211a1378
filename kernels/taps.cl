// SPDX-License-Identifier: MIT
// taps.cl — fragment (#include "taps.cl"): the K×K tap loops of the per-pixel float3 kernels, unrolled, each tap
// weighted with W3(j, i) from planar_weights.cl (included here). The kernel passes the name of a function-like
// macro that reads one pixel; the loops are the same in every kernel, only where a pixel comes from differs.

#include "planar_weights.cl"  // KK, W3(j, i)

// acc += PIXEL(i, j) · W3(j, i) over all taps: i, j = 0 … K−1, the window's column and row (the pixel at x + i −
// RADIUS, y + j − RADIUS). For work-items whose window lies inside the frame (or a staged tile).
#define ACCUMULATE_TAPS(acc, PIXEL)                                                          \
  _Pragma("unroll") for (int j = 0; j < KSIZE; ++j) {                                      \
    _Pragma("unroll") for (int i = 0; i < KSIZE; ++i) acc += PIXEL(i, j) * W3(j, i);       \
  }

// The same for border work-items (x, y near an edge of the width×height frame): the K column indices are resolved
// with border_index once instead of K² times, each row index once per row; PIXEL(sx, sy) reads the pixel at the
// resolved indices (negative where BORDER_CONSTANT falls outside).
#define ACCUMULATE_BORDER_TAPS(acc, x, y, width, height, PIXEL)                              \
  int bx[KSIZE];                                                                             \
  _Pragma("unroll") for (int i = 0; i < KSIZE; ++i) bx[i] = border_index(x + i - RADIUS, width); \
  _Pragma("unroll") for (int j = 0; j < KSIZE; ++j) {                                      \
    const int by = border_index(y + j - RADIUS, height);                                     \
    _Pragma("unroll") for (int i = 0; i < KSIZE; ++i) {                                    \
      acc += PIXEL(bx[i], by) * W3(j, i);                                                    \
    }                                                                                        \
  }
