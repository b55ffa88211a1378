// SPDX-License-Identifier: MIT
// image.cl — the frame as an RGBA8 image2d_t read through a sampler (texture cache).
// RGB8 is no valid channel order, so pack_rgba first copies the packed RGB buffer into the image.
// Samplers cannot express reflect/reflect101/wrap with integer coordinates, so border work-items
// compute coordinates with border_index(); CLAMP_TO_EDGE alone is exactly BORDER_REPLICATE.

#include "taps.cl"  // ACCUMULATE_TAPS, ACCUMULATE_BORDER_TAPS; W3(j, i)

__constant sampler_t kNearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__kernel void pack_rgba(__global const uchar* src, __write_only image2d_t dst, int width, int height) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  write_imageui(dst, (int2)(x, y), (uint4)(convert_uint3(vload3(y * width + x, src)), 255u));
}

inline float3 texel(__read_only image2d_t src, int x, int y) {
  return convert_float3(read_imageui(src, kNearest, (int2)(x, y)).xyz);
}

// A pixel of the window (the sampler clamps), and one at resolved border indices (BORDER_CONSTANT: negative
// outside the frame, where border_value stands instead).
#define WINDOW_TEXEL(i, j) texel(src, x + i - RADIUS, y + j - RADIUS)
#if BORDER_MODE == BORDER_CONSTANT
#define RESOLVED_TEXEL(sx, sy) ((sy < 0 || sx < 0) ? border_value.xyz : texel(src, sx, sy))
#else
#define RESOLVED_TEXEL(sx, sy) texel(src, sx, sy)
#endif

__kernel void convolve_image(__read_only image2d_t src, __global uchar* dst, int width, int height,
                             __constant float* weights,  // R, G, B planes, as planar_weights.cl reads them
                             float4 offset, float4 border_value) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  float3 acc = offset.xyz;
#if BORDER_MODE != BORDER_REPLICATE
  if (x < RADIUS || y < RADIUS || x + RADIUS >= width || y + RADIUS >= height) {
    ACCUMULATE_BORDER_TAPS(acc, x, y, width, height, RESOLVED_TEXEL)
    store_rgb(dst, x, y, width, acc);
    return;
  }
#endif
  ACCUMULATE_TAPS(acc, WINDOW_TEXEL)
  store_rgb(dst, x, y, width, acc);
}
