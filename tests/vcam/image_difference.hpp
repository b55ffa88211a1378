// SPDX-License-Identifier: MIT
// The largest byte difference between two RGB frames (999 when their sizes differ): the one comparison the
// virtual-camera and PipeWire-camera tests make against their tolerance.
#pragma once

#include <algorithm>
#include <cstdlib>

#include "convolab/image.hpp"

namespace convolab::vcam::test {

inline int maxDifference(const Image& a, const Image& b) {
  if (a.width != b.width || a.height != b.height) return 999;
  int worst = 0;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width * 3; ++x)
      worst = std::max(worst, std::abs(int(a.pixels[y * a.stride + x]) - int(b.pixels[y * b.stride + x])));
  return worst;
}

}  // namespace convolab::vcam::test
