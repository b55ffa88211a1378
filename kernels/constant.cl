// SPDX-License-Identifier: MIT
// constant.cl — weights in __constant memory, K and the border mode baked in with -D, loops unrolled.
// Work-items whose whole K×K window lies inside the frame take a path without any border arithmetic.

#include "taps.cl"  // ACCUMULATE_TAPS, ACCUMULATE_BORDER_TAPS; W3(j, i)

// A pixel of the window (inside the frame), and one at resolved border indices.
#define INSIDE_PIXEL(i, j) load_rgb_inside(src, x + i - RADIUS, y + j - RADIUS, width)
#define RESOLVED_PIXEL(sx, sy) load_rgb_resolved(src, sx, sy, width, border_value.xyz)

__kernel void convolve_constant(__global const uchar* src, __global uchar* dst, int width, int height,
                                __constant float* weights,  // planar_weights.cl; read through the constant cache
                                float4 offset, float4 border_value) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  float3 acc = offset.xyz;
  if (x >= RADIUS && y >= RADIUS && x + RADIUS < width && y + RADIUS < height) {
    ACCUMULATE_TAPS(acc, INSIDE_PIXEL)
  } else {
    ACCUMULATE_BORDER_TAPS(acc, x, y, width, height, RESOLVED_PIXEL)
  }
  store_rgb(dst, x, y, width, acc);
}
