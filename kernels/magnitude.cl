// SPDX-License-Identifier: MIT
// magnitude.cl — a chain's magnitude step (DESIGN §1): two filters A and B read the same input, and each output
// is round(sqrt(a² + b²)) of their unrounded values (after divisor and offset), per channel. One work-item per
// pixel, weights from global memory, as naive.cl; both filters are padded to one K on the host (zero rings add
// nothing), so one loop serves both.

__kernel void convolve_magnitude(__global const uchar* src, __global uchar* dst, int width, int height,
                                 __global const float* weights_a,  // [3][K][K]: A's matrices / divisor
                                 __global const float* weights_b,  // [3][K][K]: B's matrices / divisor
                                 int radius, float4 offset_a, float4 offset_b, float4 border_value) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  const int k = 2 * radius + 1;
  const int plane = k * k;
  float3 a = offset_a.xyz;
  float3 b = offset_b.xyz;
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < k; ++i) {
      const float3 p = load_rgb(src, x + i - radius, y + j - radius, width, height, border_value.xyz);
      const int w = j * k + i;
      a += p * (float3)(weights_a[w], weights_a[plane + w], weights_a[2 * plane + w]);
      b += p * (float3)(weights_b[w], weights_b[plane + w], weights_b[2 * plane + w]);
    }
  }
  // sqrt, not hypot (4 ulp in OpenCL): a² + b² is exact wherever the output is below 255.5 for filters with
  // small power-of-two divisors, and a correctly rounded sqrt then rounds exactly as the reference does.
  store_rgb(dst, x, y, width, sqrt(a * a + b * b));
}
