// SPDX-License-Identifier: MIT
// naive.cl — one work-item per output pixel; weights, radius and pixels all read from global memory.
// The baseline every other strategy is measured against.

#include "window_taps.cl"  // FOR_EACH_WINDOW_TAP, planar_tap

__kernel void convolve_naive(__global const uchar* src, __global uchar* dst, int width, int height,
                             __global const float* weights,  // [3][K][K]: R, G, B matrices / divisor
                             int radius, float4 offset, float4 border_value) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  const int plane = (2 * radius + 1) * (2 * radius + 1);
  float3 acc = offset.xyz;
#define NAIVE_TAP(p, w) acc += (p) * planar_tap(weights, plane, w)
  FOR_EACH_WINDOW_TAP(src, x, y, width, height, radius, border_value.xyz, NAIVE_TAP)
#undef NAIVE_TAP
  store_rgb(dst, x, y, width, acc);
}
