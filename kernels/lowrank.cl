// SPDX-License-Identifier: MIT
// lowrank.cl — a filter of rank RANK as the sum of RANK separable terms, fused into two launches:
// lowrank_rows computes every term's row pass from one read of the pixels, lowrank_columns sums the
// column passes of all terms, adds the offset and rounds.
//
// Build options beyond common.cl's: -DRANK=<terms>. Weights buffer (divisor folded in):
//   w[0 .. 3·RANK·K)           row factors    [term][channel R,G,B][K]
//   w[3·RANK·K .. 6·RANK·K)    column factors [term][channel][K]
//   then [channel][K] edge[c][j] = border_value_c · Σ_i M_c[j][i] / divisor_c: what a row outside the
//   image adds under BORDER_CONSTANT. Channels of lower rank have zero factors for the extra terms.
// Intermediate: 3·RANK planes of width·height floats, plane (term·3 + channel).

#define ROWS_AT(t, c, i) w[((t)*3 + (c)) * KSIZE + (i)]
#define COLS_AT(t, c, j) w[3 * RANK * KSIZE + ((t)*3 + (c)) * KSIZE + (j)]
#define ROW3(t, i) (float3)(ROWS_AT(t, 0, i), ROWS_AT(t, 1, i), ROWS_AT(t, 2, i))
#define COL3(t, j) (float3)(COLS_AT(t, 0, j), COLS_AT(t, 1, j), COLS_AT(t, 2, j))
#define EDGE3(j) \
  (float3)(w[6 * RANK * KSIZE + (j)], w[(6 * RANK + 1) * KSIZE + (j)], w[(6 * RANK + 2) * KSIZE + (j)])

__kernel void lowrank_rows(__global const uchar* src, __global float* tmp, int width, int height,
                           __constant float* w, float4 border_value) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  float3 acc[RANK];
#pragma unroll
  for (int t = 0; t < RANK; ++t) acc[t] = (float3)(0.0f);
  if (x >= RADIUS && x + RADIUS < width) {
#pragma unroll
    for (int i = 0; i < KSIZE; ++i) {
      const float3 p = load_rgb_inside(src, x + i - RADIUS, y, width);
#pragma unroll
      for (int t = 0; t < RANK; ++t) acc[t] += p * ROW3(t, i);
    }
  } else {
#pragma unroll
    for (int i = 0; i < KSIZE; ++i) {
      const int bx = border_index(x + i - RADIUS, width);
      const float3 p = load_rgb_resolved(src, bx, y, width, border_value.xyz);
#pragma unroll
      for (int t = 0; t < RANK; ++t) acc[t] += p * ROW3(t, i);
    }
  }
  const int plane = width * height;
  const int idx = y * width + x;
#pragma unroll
  for (int t = 0; t < RANK; ++t) {
    tmp[(3 * t) * plane + idx] = acc[t].x;
    tmp[(3 * t + 1) * plane + idx] = acc[t].y;
    tmp[(3 * t + 2) * plane + idx] = acc[t].z;
  }
}

// Σ over terms of the column factor times that term's intermediate at idx.
inline float3 column_tap(__global const float* tmp, __constant float* w, int idx, int plane, int j) {
  float3 s = (float3)(0.0f);
#pragma unroll
  for (int t = 0; t < RANK; ++t)
    s +=
        (float3)(tmp[(3 * t) * plane + idx], tmp[(3 * t + 1) * plane + idx], tmp[(3 * t + 2) * plane + idx]) *
        COL3(t, j);
  return s;
}

__kernel void lowrank_columns(__global const float* tmp, __global uchar* dst, int width, int height,
                              __constant float* w, float4 offset) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  const int plane = width * height;
  float3 acc = offset.xyz;
  if (y >= RADIUS && y + RADIUS < height) {
#pragma unroll
    for (int j = 0; j < KSIZE; ++j) acc += column_tap(tmp, w, (y + j - RADIUS) * width + x, plane, j);
  } else {
#pragma unroll
    for (int j = 0; j < KSIZE; ++j) {
      const int by = border_index(y + j - RADIUS, height);
#if BORDER_MODE == BORDER_CONSTANT
      if (by < 0) {
        acc += EDGE3(j);
        continue;
      }
#endif
      acc += column_tap(tmp, w, by * width + x, plane, j);
    }
  }
  store_rgb(dst, x, y, width, acc);
}
