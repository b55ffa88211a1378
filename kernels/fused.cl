// SPDX-License-Identifier: MIT
// fused.cl — a whole chain (filter and magnitude steps) in one launch (docs/ARCHITECTURE.md, Chains). A
// work-group owns a TW×TH output tile and keeps, in local memory, the region of every step's output it needs:
// step s's region reaches H_s = Σ_{t>s} r_t beyond the tile (the halo is recomputed by each work-group). Each
// step rounds and saturates as a single filter's store does, so where the arithmetic is exact the result equals
// the step-by-step run bit for bit.
//
// Borders are exact at the image edges: a step computes only the in-image positions of its region, then the
// out-of-image positions are filled by the *next* step's border rule from in-image positions of the same region
// (for replicate/reflect/reflect101 they always lie inside it: a fold never moves further than the halo), or
// with the next step's constant. Wrap would read the far side of the image, so only the first step may wrap
// (the input is read from global memory with the first step's rule).
//
// Build options: -DTW -DTH (tile = work-group), -DH0 (Σ radii rounded up to a multiple of 4, so chains share
// programs; the kernel starts from the true sum `h0`), plus the common BORDER_MODE (unused here).
// Per step s, meta[4s..4s+3] = radius, border mode (BORDER_*), weight offset of filter a, of filter b (-1: a
// filter step); weights are [3][K][K] floats (matrix/divisor); offsets[2s], offsets[2s+1] = a's, b's offsets;
// borders[s] = step s's constant border value.

#define RW (TW + 2 * H0)
#define RH (TH + 2 * H0)

#include "border_any.cl"  // border_index_any

inline float3 fused_sum(__local const float* in, int lx, int ly, int r, __global const float* w, float3 acc) {
  const int k = 2 * r + 1, plane = k * k;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      const int t = j * k + i;
      acc += vload3((ly - r + j) * RW + (lx - r + i), in) * (float3)(w[t], w[plane + t], w[2 * plane + t]);
    }
  return acc;
}

__kernel __attribute__((reqd_work_group_size(TW, TH, 1))) void convolve_fused(
    __global const uchar* src, __global uchar* dst, int width, int height, __global const float* weights,
    __global const int* meta, __global const float4* offsets, __global const float4* borders, int steps,
    int h0) {
  __local float buf0[RW * RH * 3], buf1[RW * RH * 3];
  const int lid = get_local_id(1) * TW + get_local_id(0);
  const int ox0 = get_group_id(0) * TW - H0, oy0 = get_group_id(1) * TH - H0;  // buffer (0, 0) in the image
  // The input region, read with the first step's border.
  const int mode0 = meta[1];
  const float3 bv0 = borders[0].xyz;
  for (int i = lid; i < RW * RH; i += TW * TH) {
    const int bx = border_index_any(ox0 + i % RW, width, mode0), by = border_index_any(oy0 + i / RW, height, mode0);
    const float3 v = (bx < 0 || by < 0) ? bv0 : convert_float3(vload3(by * width + bx, src));
    vstore3(v, i, buf0);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __local float* in = buf0;
  __local float* out = buf1;
  int h = h0;  // how far the region `in` holds reaches beyond the tile (the buffers reach H0 ≥ h0)
  for (int s = 0; s < steps; ++s) {
    const int r = meta[4 * s], wa = meta[4 * s + 2], wb = meta[4 * s + 3];
    const int ho = h - r, side = TW + 2 * ho, rows = TH + 2 * ho;
    for (int i = lid; i < side * rows; i += TW * TH) {
      const int lx = i % side + H0 - ho, ly = i / side + H0 - ho;
      const int gx = ox0 + lx, gy = oy0 + ly;
      if ((uint)gx >= (uint)width || (uint)gy >= (uint)height) continue;  // filled below by the next border
      float3 v = fused_sum(in, lx, ly, r, weights + wa, offsets[2 * s].xyz);
      if (wb >= 0) {
        const float3 b = fused_sum(in, lx, ly, r, weights + wb, offsets[2 * s + 1].xyz);
        v = sqrt(v * v + b * b);
      }
      const uchar3 rounded = convert_uchar3_sat_rte(v);
      if (s == steps - 1)
        vstore3(rounded, gy * width + gx, dst);
      else
        vstore3(convert_float3(rounded), ly * RW + lx, out);
    }
    if (s == steps - 1) break;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int mode = meta[4 * (s + 1) + 1];
    const float3 bv = borders[s + 1].xyz;
    for (int i = lid; i < side * rows; i += TW * TH) {
      const int lx = i % side + H0 - ho, ly = i / side + H0 - ho;
      const int gx = ox0 + lx, gy = oy0 + ly;
      if ((uint)gx < (uint)width && (uint)gy < (uint)height) continue;
      const int bx = border_index_any(gx, width, mode), by = border_index_any(gy, height, mode);
      const float3 v = (bx < 0 || by < 0) ? bv : vload3((by - oy0) * RW + (bx - ox0), out);
      vstore3(v, ly * RW + lx, out);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float* t = in;
    in = out;
    out = t;
    h = ho;
  }
}
