// SPDX-License-Identifier: MIT
#pragma once
// The CPU reference's rounding of a sum to a pixel: nearest, ties to even (the default FP rounding mode, as
// the kernels' rint), then saturated to 0..255 (docs/FILTER_FORMAT.md). One definition for the reference, the
// sparse reference and the pixel inspector's probe, which must agree to the bit.
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace convolab {
inline std::uint8_t saturateRound(double value) {
  return static_cast<std::uint8_t>(std::clamp(std::nearbyint(value), 0.0, 255.0));
}
}  // namespace convolab
