// SPDX-License-Identifier: MIT
// window_taps.cl — fragment (#include "window_taps.cl"): the run-time K×K tap loop of the one-pixel-a-work-item
// kernels that read [3][K][K] planar weights (matrix/divisor) from global memory: naive.cl, magnitude.cl.
// The loop is a macro, so the preprocessed kernel is the loop written out: the same code as before it was
// shared (the IR clang makes of naive and magnitude is unchanged).

// Tap w's (w = j·K + i) R, G, B weights; `plane` = K·K floats a channel.
inline float3 planar_tap(__global const float* weights, int plane, int w) {
  return (float3)(weights[w], weights[plane + w], weights[2 * plane + w]);
}

// Runs TAP(p, w) for each tap of the K×K window (K = 2·radius + 1) around (x, y) of `src`, row by row: `p` the
// pixel (float3, the border rule applied, `border_value` under BORDER_CONSTANT), `w` = j·K + i.
#define FOR_EACH_WINDOW_TAP(src, x, y, width, height, radius, border_value, TAP)                         \
  for (int j_ = 0, k_ = 2 * (radius) + 1; j_ < k_; ++j_) {                                               \
    for (int i_ = 0; i_ < k_; ++i_) {                                                                    \
      const float3 p_ = load_rgb(src, (x) + i_ - (radius), (y) + j_ - (radius), width, height, border_value); \
      TAP(p_, j_ * k_ + i_);                                                                             \
    }                                                                                                    \
  }
