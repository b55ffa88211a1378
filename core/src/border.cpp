// SPDX-License-Identifier: MIT
// Border modes: names and cv::borderInterpolate semantics on the host.
#include "convolab/border.hpp"

namespace convolab {

std::string_view borderName(BorderMode mode) {
  switch (mode) {
    case BorderMode::Replicate:
      return "replicate";
    case BorderMode::Reflect:
      return "reflect";
    case BorderMode::Reflect101:
      return "reflect101";
    case BorderMode::Wrap:
      return "wrap";
    case BorderMode::Constant:
      return "constant";
  }
  return "reflect101";
}

std::optional<BorderMode> parseBorder(std::string_view name) {
  for (BorderMode m : kAllBorderModes)
    if (borderName(m) == name) return m;
  return std::nullopt;
}

int borderInterpolate(int p, int len, BorderMode mode) {
  if (p >= 0 && p < len) return p;
  switch (mode) {
    case BorderMode::Constant:
      return -1;
    case BorderMode::Replicate:
      return p < 0 ? 0 : len - 1;
    case BorderMode::Wrap: {
      int m = p % len;
      return m < 0 ? m + len : m;
    }
    case BorderMode::Reflect:
    case BorderMode::Reflect101: {
      // Same loop as OpenCV: reflect repeatedly until inside, which handles len smaller than the radius.
      if (len == 1) return 0;
      const int delta = mode == BorderMode::Reflect101 ? 1 : 0;
      do {
        if (p < 0)
          p = -p - 1 + delta;
        else
          p = len - 1 - (p - len) - delta;
      } while (p < 0 || p >= len);
      return p;
    }
  }
  return -1;
}

}  // namespace convolab
