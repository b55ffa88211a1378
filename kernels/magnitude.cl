// SPDX-License-Identifier: MIT
// magnitude.cl — a chain's magnitude step (DESIGN §1): two filters A and B read the same input, and each output
// is round(sqrt(a² + b²)) of their unrounded values (after divisor and offset), per channel. One work-item per
// pixel, weights from global memory, with naive.cl's loop (window_taps.cl); both filters are padded to one K on
// the host (zero rings add nothing), so one loop serves both.

#include "window_taps.cl"  // FOR_EACH_WINDOW_TAP, planar_tap

__kernel void convolve_magnitude(__global const uchar* src, __global uchar* dst, int width, int height,
                                 __global const float* weights_a,  // [3][K][K]: A's matrices / divisor
                                 __global const float* weights_b,  // [3][K][K]: B's matrices / divisor
                                 int radius, float4 offset_a, float4 offset_b, float4 border_value) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  const int plane = (2 * radius + 1) * (2 * radius + 1);
  float3 a = offset_a.xyz;
  float3 b = offset_b.xyz;
#define MAGNITUDE_TAPS(p, w)                   \
  a += (p) * planar_tap(weights_a, plane, w); \
  b += (p) * planar_tap(weights_b, plane, w)
  FOR_EACH_WINDOW_TAP(src, x, y, width, height, radius, border_value.xyz, MAGNITUDE_TAPS)
#undef MAGNITUDE_TAPS
  // sqrt, not hypot (4 ulp in OpenCL): a² + b² is exact wherever the output is below 255.5 for filters with
  // small power-of-two divisors, and a correctly rounded sqrt then rounds exactly as the reference does.
  store_rgb(dst, x, y, width, sqrt(a * a + b * b));
}
