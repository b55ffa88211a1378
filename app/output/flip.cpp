// SPDX-License-Identifier: MIT
// The left-right flip: one pass over the rows, each written back to front (a 1280×720 frame in about a
// millisecond; docs/BENCHMARKS.md).
#include "output/flip.hpp"

#include <cstring>

namespace convolab::output {

Image flippedLeftRight(const ImageView& in) {
  Image out(in.width, in.height);
  if (in.width <= 0 || in.height <= 0) return out;
  const MutableImageView o = out.mutableView();
  const std::size_t last = static_cast<std::size_t>(in.width - 1) * kBytesPerPixel;
  for (int y = 0; y < in.height; ++y) {
    const std::uint8_t* src = in.row(y);
    std::uint8_t* dst = o.row(y);
    for (std::size_t at = 0; at <= last; at += kBytesPerPixel) std::memcpy(dst + (last - at), src + at, 3);
  }
  return out;
}

}  // namespace convolab::output
