// SPDX-License-Identifier: MIT
// constant.cl — weights in __constant memory, K and the border mode baked in with -D, loops unrolled.
// Work-items whose whole K×K window lies inside the frame take a path without any border arithmetic.

#include "planar_weights.cl"  // KK, W3(j, i)

__kernel void convolve_constant(__global const uchar* src, __global uchar* dst, int width, int height,
                                __constant float* weights,  // [3][K][K]: R, G, B matrices / divisor
                                float4 offset, float4 border_value) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  float3 acc = offset.xyz;
  if (x >= RADIUS && y >= RADIUS && x + RADIUS < width && y + RADIUS < height) {
#pragma unroll
    for (int j = 0; j < KSIZE; ++j) {
#pragma unroll
      for (int i = 0; i < KSIZE; ++i)
        acc += load_rgb_inside(src, x + i - RADIUS, y + j - RADIUS, width) * W3(j, i);
    }
  } else {
    // Border work-items: resolve the K column indices once instead of K² times.
    int bx[KSIZE];
#pragma unroll
    for (int i = 0; i < KSIZE; ++i) bx[i] = border_index(x + i - RADIUS, width);
#pragma unroll
    for (int j = 0; j < KSIZE; ++j) {
      const int by = border_index(y + j - RADIUS, height);
#pragma unroll
      for (int i = 0; i < KSIZE; ++i) {
        acc += load_rgb_resolved(src, bx[i], by, width, border_value.xyz) * W3(j, i);
      }
    }
  }
  store_rgb(dst, x, y, width, acc);
}
