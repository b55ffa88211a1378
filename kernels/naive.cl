// SPDX-License-Identifier: MIT
// naive.cl — one work-item per output pixel; weights, radius and pixels all read from global memory.
// The baseline every other strategy is measured against.

__kernel void convolve_naive(__global const uchar* src, __global uchar* dst, int width, int height,
                             __global const float* weights,  // [3][K][K]: R, G, B matrices / divisor
                             int radius, float4 offset, float4 border_value) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  const int k = 2 * radius + 1;
  const int plane = k * k;
  float3 acc = offset.xyz;
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < k; ++i) {
      const float3 p = load_rgb(src, x + i - radius, y + j - radius, width, height, border_value.xyz);
      const int w = j * k + i;
      acc += p * (float3)(weights[w], weights[plane + w], weights[2 * plane + w]);
    }
  }
  store_rgb(dst, x, y, width, acc);
}
