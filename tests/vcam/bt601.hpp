// SPDX-License-Identifier: MIT
// BT.601 limited range (Rec. 601: Y in 16..235, U and V in 16..240) in double, the obvious way: the expected
// values of the frame-conversion tests (frame_conversion_test.cpp, frame_conversion_photo_test.cpp).
#pragma once

#include <array>
#include <cstdint>

namespace convolab::pipewire {
/// Y, U and V of one RGB pixel.
inline std::array<double, 3> yuv601(const std::uint8_t* rgb) {
  const double r = rgb[0], g = rgb[1], b = rgb[2];
  return {16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255,
          128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255,
          128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255};
}
}  // namespace convolab::pipewire
