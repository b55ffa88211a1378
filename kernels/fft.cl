// SPDX-License-Identifier: MIT
// fft.cl — the fft strategy's kernels around VkFFT's transforms (core/src/strategies/fft.cpp).
//
// Planes: [tiles][3][NY][RS] floats (R, G, B), NX ≥ TW + K − 1, NY ≥ TH + K − 1 for tiles of TW × TH
// output pixels (fft_pad), rows of RS ≥ 2·(NX/2 + 1) floats (room for a row's half spectrum: VkFFT's
// in-place real-to-complex layout, FftPlan::rowFloats). Per frame: fft_pad →
// VkFFT's convolution (rows forward; columns forward, × the kernel's spectrum, inverse; rows inverse) →
// fft_crop; on the columns path (CPUs) VkFFT's rows forward → fft_columns.cl → VkFFT's rows inverse between
// them. Per filter change: fft_taps → the forward transforms give the kernel's spectrum (the columns path:
// tile 0's only, shared; taps scaled by 1/(NX·NY) there, by 1/NX for VkFFT's convolution, fft_taps' scale).
//
// A tile's padded plane P(u, v) = in(o.x + u − RADIUS, o.y + v − RADIUS) with the border rule, for u < TW +
// 2·RADIUS, v < TH + 2·RADIUS (o the tile's origin); the kernel plane holds M[j][i] at (−i mod NX, −j mod NY), so
// the circular convolution P ⊛ G at (x, y) is Σ M[j][i]·P(x + i, y + j) = the correlation filter2D computes at
// o + (x, y), and never wraps for x < TW, y < TH.

// One padded, border-extended plane sample per channel; zeros past the padded tile (they are never read by
// an output, but must be finite: a NaN there would spread through the whole transform), and in the rows'
// spare floats from NX on. Tiles (overlap-save): tile t (dimension 2) holds TW × TH output pixels from
// origins[t] on, its planes at [t][channel][NY][RS], P(u, v) the frame's padded plane at origins[t] + (u, v);
// one tile (TW = width, TH = height) is the whole frame. The origins come from a table, not a division: the
// divisions cost the H200 a quarter of pad's and crop's time.
__kernel void fft_pad(__global const uchar* src, __global float* planes, int width, int height, int rs, int ny,
                      float4 border_value, int tw, int th, __global const int2* origins) {
  const int u = get_global_id(0);
  const int v = get_global_id(1);
  const int t = get_global_id(2);
  if (u >= rs || v >= ny) return;
  const int2 o = origins[t];
  float3 p = (float3)(0.0f);
  if (u < tw + 2 * RADIUS && v < th + 2 * RADIUS)
    p = load_rgb_resolved(src, border_index(o.x + u - RADIUS, width), border_index(o.y + v - RADIUS, height),
                          width, border_value.xyz);
  const size_t plane = (size_t)rs * ny, at = (size_t)t * 3 * plane + (size_t)v * rs + u;
  planes[at] = p.x;
  planes[plane + at] = p.y;
  planes[2 * plane + at] = p.z;
}

// The kernel's plane: weights ([3][K][K], matrix/divisor) times `scale` (1/NX: the convolution returns NX ×
// its result, fft_plan.hpp) at their flipped, wrapped positions. The planes were zeroed before.
__kernel void fft_taps(__global const float* weights, __global float* planes, int nx, int rs, int ny,
                       float scale) {
  const int i = get_global_id(0);
  const int j = get_global_id(1);
  if (i >= KSIZE || j >= KSIZE) return;
  const size_t plane = (size_t)rs * ny;
  const size_t at = (size_t)((ny - j) % ny) * rs + (nx - i) % nx;
  for (int c = 0; c < 3; ++c) planes[c * plane + at] = weights[(c * KSIZE + j) * KSIZE + i] * scale;
}

// Output pixel origins[t] + (x, y) of tile t: its three planes at (x, y), plus the offsets, rounded half to
// even and saturated.
__kernel void fft_crop(__global const float* planes, __global uchar* dst, int width, int height, int rs, int ny,
                       float4 offset, int tw, int th, __global const int2* origins) {
  const int lx = get_global_id(0);
  const int ly = get_global_id(1);
  const int t = get_global_id(2);
  const int2 o = origins[t];
  const int x = o.x + lx, y = o.y + ly;
  if (lx >= tw || ly >= th || x >= width || y >= height) return;
  const size_t plane = (size_t)rs * ny, at = (size_t)t * 3 * plane + (size_t)ly * rs + lx;
  const float3 v = (float3)(planes[at], planes[plane + at], planes[2 * plane + at]) + offset.xyz;
  // As chunk.cl's ROUNDED_BITS: clamped to 0..255, v + 1.5·2^23 rounds to nearest even and its low mantissa
  // byte is the result. store_rgb's convert_uchar3_sat_rte is a long software sequence on PoCL (it took 45 ms
  // of a 1080p frame).
  const uint3 bits = as_uint3(clamp(v, 0.0f, 255.0f) + 12582912.0f) & 0xFFu;
  vstore3(convert_uchar3(bits), (size_t)y * width + x, dst);
}
