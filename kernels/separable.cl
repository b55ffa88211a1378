// separable.cl — rank-1 filters as two 1-D passes: rows (border in x only) into a planar float
// intermediate, then columns (border in y), which adds the offset and rounds.
//
// Weights buffer, [3][K] blocks, R, G, B (divisor folded in):
//   w[0 .. 3K)    row factors          w[3K .. 6K)  column factors
//   w[6K .. 9K)   edge[c][j] = border_value_c · Σ_i M_c[j][i] / divisor_c: what a row outside the
//                 image adds under BORDER_CONSTANT (the rows pass never sees those rows)
// Intermediate: three planes (R, G, B) of width·height floats, so both passes access it coalesced.

#define ROW3(i) (float3)(w[(i)], w[KSIZE + (i)], w[2 * KSIZE + (i)])
#define COL3(j) (float3)(w[3 * KSIZE + (j)], w[4 * KSIZE + (j)], w[5 * KSIZE + (j)])
#define EDGE3(j) (float3)(w[6 * KSIZE + (j)], w[7 * KSIZE + (j)], w[8 * KSIZE + (j)])

__kernel void separable_rows(__global const uchar* src, __global float* tmp, int width, int height,
                             __constant float* w, float4 border_value) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  float3 acc = (float3)(0.0f);
  if (x >= RADIUS && x + RADIUS < width) {
#pragma unroll
    for (int i = 0; i < KSIZE; ++i) acc += load_rgb_inside(src, x + i - RADIUS, y, width) * ROW3(i);
  } else {
#pragma unroll
    for (int i = 0; i < KSIZE; ++i) {
      const int bx = border_index(x + i - RADIUS, width);
#if BORDER_MODE == BORDER_CONSTANT
      const float3 p = bx < 0 ? border_value.xyz : load_rgb_inside(src, bx, y, width);
#else
      const float3 p = load_rgb_inside(src, bx, y, width);
#endif
      acc += p * ROW3(i);
    }
  }
  const int plane = width * height;
  const int idx = y * width + x;
  tmp[idx] = acc.x;
  tmp[plane + idx] = acc.y;
  tmp[2 * plane + idx] = acc.z;
}

inline float3 load_tmp(__global const float* tmp, int idx, int plane) {
  return (float3)(tmp[idx], tmp[plane + idx], tmp[2 * plane + idx]);
}

__kernel void separable_columns(__global const float* tmp, __global uchar* dst, int width, int height,
                                __constant float* w, float4 offset) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  const int plane = width * height;
  float3 acc = offset.xyz;
  if (y >= RADIUS && y + RADIUS < height) {
#pragma unroll
    for (int j = 0; j < KSIZE; ++j) acc += load_tmp(tmp, (y + j - RADIUS) * width + x, plane) * COL3(j);
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
      acc += load_tmp(tmp, by * width + x, plane) * COL3(j);
    }
  }
  store_rgb(dst, x, y, width, acc);
}
