// SPDX-License-Identifier: MIT
// custom.cl — the kernel around a custom OpenCL step (issue 36). The user writes only the body of
// pixel_value(); core/src/custom_kernel.cpp appends that function after this file, with `#line 1 "user"`
// before the user's code so the compiler's messages carry the user's line numbers. One work-item per pixel;
// the store rounds to nearest even and saturates, as every step's does (DESIGN §1).
//
// Build options: -DBORDER_MODE (common.cl). Helpers the user's code may call, besides OpenCL C's own:
//   pixel(dx, dy)     the input at (x + dx, y + dy), RGB as float3 in 0..255, with the step's border
//   pixel_at(px, py)  the input at (px, py), with the step's border
//   luma(rgb)         0.299 R + 0.587 G + 0.114 B (BT.601)
// and the values x, y (this pixel), width, height (the frame), time (seconds) and each named parameter.

inline float luma(float3 rgb) {
  return dot(rgb, (float3)(0.299f, 0.587f, 0.114f));
}

float3 pixel_value(__global const uchar* convolab_src, const int x, const int y, const int width,
                   const int height, const float time, const float3 convolab_border,
                   const float8 convolab_params);

__kernel void convolve_custom(__global const uchar* src, __global uchar* dst, int width, int height,
                              float time, float4 border_value, float8 params) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  store_rgb(dst, x, y, width, pixel_value(src, x, y, width, height, time, border_value.xyz, params));
}

// The user's pixel_value follows.
