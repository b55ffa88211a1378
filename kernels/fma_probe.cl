// SPDX-License-Identifier: MIT
// fma_probe.cl — not a strategy: `convolab-cli bench`'s FP32 peak probe (app/cli/bench_peak.cpp).
// Two shapes of the same work, because devices differ in what they fill their lanes with: GPUs run one
// work-item per lane (fma_scalar: 8 independent chains each), PoCL's CPU device vectorises float16 types
// (fma_vector: 8 chains of 16 lanes). The probe reports the faster.

__kernel void fma_scalar(__global float* out, const float a, const float b, const int iters) {
  const size_t gid = get_global_id(0);
  float x0 = (float)gid * 1e-9f, x1 = x0 + 0.1f, x2 = x0 + 0.2f, x3 = x0 + 0.3f;
  float x4 = x0 + 0.4f, x5 = x0 + 0.5f, x6 = x0 + 0.6f, x7 = x0 + 0.7f;
  for (int i = 0; i < iters; ++i) {
    x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);
    x4 = fma(x4, a, b); x5 = fma(x5, a, b); x6 = fma(x6, a, b); x7 = fma(x7, a, b);
  }
  out[gid] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

__kernel void fma_vector(__global float* out, const float a, const float b, const int iters) {
  const size_t gid = get_global_id(0);
  const float16 va = (float16)(a), vb = (float16)(b);
  float16 x0 = (float16)((float)gid * 1e-9f), x1 = x0 + 0.1f, x2 = x0 + 0.2f, x3 = x0 + 0.3f;
  float16 x4 = x0 + 0.4f, x5 = x0 + 0.5f, x6 = x0 + 0.6f, x7 = x0 + 0.7f;
  for (int i = 0; i < iters; ++i) {
    x0 = fma(x0, va, vb); x1 = fma(x1, va, vb); x2 = fma(x2, va, vb); x3 = fma(x3, va, vb);
    x4 = fma(x4, va, vb); x5 = fma(x5, va, vb); x6 = fma(x6, va, vb); x7 = fma(x7, va, vb);
  }
  const float16 s = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
  const float8 h = s.lo + s.hi;
  const float4 q = h.lo + h.hi;
  out[gid] = q.x + q.y + q.z + q.w;
}
