// SPDX-License-Identifier: MIT
// fft.cl — the fft strategy's kernels around VkFFT's transforms (core/src/strategies/fft.cpp).
//
// Planes: [3][NY][NX] floats (R, G, B), NX ≥ width + K − 1, NY ≥ height + K − 1; spectra: [3][NY][NX/2 + 1]
// float2 (VkFFT's real-to-complex layout). Per frame: fft_pad → forward FFT → fft_multiply → inverse FFT →
// fft_crop. Per filter change: fft_taps → forward FFT gives the kernel's spectrum.
//
// Padded plane P(u, v) = in(u − RADIUS, v − RADIUS) with the border rule, for u < width + 2·RADIUS; the
// kernel plane holds M[j][i] at (−i mod NX, −j mod NY), so the circular convolution P ⊛ G at (x, y) is
// Σ M[j][i]·P(x + i, y + j) = the correlation filter2D computes, and never wraps for x < width, y < height.

// One padded, border-extended plane sample per channel; zeros past the padded frame (they are never read by
// an output, but must be finite: a NaN there would spread through the whole transform).
__kernel void fft_pad(__global const uchar* src, __global float* planes, int width, int height, int nx, int ny,
                      float4 border_value) {
  const int u = get_global_id(0);
  const int v = get_global_id(1);
  if (u >= nx || v >= ny) return;
  float3 p = (float3)(0.0f);
  if (u < width + 2 * RADIUS && v < height + 2 * RADIUS)
    p = load_rgb_resolved(src, border_index(u - RADIUS, width), border_index(v - RADIUS, height), width,
                          border_value.xyz);
  const size_t plane = (size_t)nx * ny, at = (size_t)v * nx + u;
  planes[at] = p.x;
  planes[plane + at] = p.y;
  planes[2 * plane + at] = p.z;
}

// The kernel's plane: weights ([3][K][K], matrix/divisor) times `scale` (1/(NX·NY): the inverse transform is
// unnormalised) at their flipped, wrapped positions. The planes were zeroed before.
__kernel void fft_taps(__global const float* weights, __global float* planes, int nx, int ny, float scale) {
  const int i = get_global_id(0);
  const int j = get_global_id(1);
  if (i >= KSIZE || j >= KSIZE) return;
  const size_t plane = (size_t)nx * ny;
  const size_t at = (size_t)((ny - j) % ny) * nx + (nx - i) % nx;
  for (int c = 0; c < 3; ++c) planes[c * plane + at] = weights[(c * KSIZE + j) * KSIZE + i] * scale;
}

// spectrum ×= kernel spectrum, element by element (complex), over all three channels' spectra: two complex
// values a work-item (`count` float4s: the spectra hold an even number, NY being even).
__kernel void fft_multiply(__global float4* spectrum, __global const float4* kernel_spectrum, int count) {
  const int n = get_global_id(0);
  if (n >= count) return;
  const float4 a = spectrum[n], b = kernel_spectrum[n];
  spectrum[n] = (float4)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x, a.z * b.z - a.w * b.w,
                         a.z * b.w + a.w * b.z);
}

// Output pixel (x, y): the three planes at (x, y) plus the offsets, rounded half to even and saturated.
__kernel void fft_crop(__global const float* planes, __global uchar* dst, int width, int height, int nx, int ny,
                       float4 offset) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  const size_t plane = (size_t)nx * ny, at = (size_t)y * nx + x;
  const float3 v = (float3)(planes[at], planes[plane + at], planes[2 * plane + at]) + offset.xyz;
  // As chunk.cl's ROUNDED_BITS: clamped to 0..255, v + 1.5·2^23 rounds to nearest even and its low mantissa
  // byte is the result. store_rgb's convert_uchar3_sat_rte is a long software sequence on PoCL (it took 45 ms
  // of a 1080p frame).
  const uint3 bits = as_uint3(clamp(v, 0.0f, 255.0f) + 12582912.0f) & 0xFFu;
  vstore3(convert_uchar3(bits), (size_t)y * width + x, dst);
}
