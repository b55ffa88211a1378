// SPDX-License-Identifier: MIT
// The tests' one image difference (issue 37.5): the largest and the mean byte difference of two RGB8 images
// or two byte runs. One convention for unequal sizes, everywhere: images (or runs) of different sizes differ
// by kSizesDiffer, more than any two bytes can (255). A tolerance check (`<= 1`, `== 0`) then fails and a
// "they differ" check (`> 16`) holds, so a comparison of the wrong two pictures never passes as a close
// match. Padding bytes (a stride beyond width·3) are never compared. Core only: no Qt, no OpenCV
// (mat_difference.hpp views a cv::Mat).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "convolab/image.hpp"

namespace convolab::test {

/// What the functions below return for images (or byte runs) of different sizes.
inline constexpr int kSizesDiffer = 256;

/// Largest |a − b| over every channel value; kSizesDiffer when the widths or heights differ.
int maxAbsDiff(const ImageView& a, const ImageView& b);
inline int maxAbsDiff(const Image& a, const Image& b) {
  return maxAbsDiff(a.view(), b.view());
}
/// Largest |a[i] − b[i]| of two byte runs (e.g. a read-back GL target); kSizesDiffer when their lengths
/// differ.
int maxAbsDiff(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);

/// Mean |a − b| per channel value (for lossy outputs); kSizesDiffer when the sizes differ, 0 for two empty
/// images.
double meanAbsDiff(const ImageView& a, const ImageView& b);
inline double meanAbsDiff(const Image& a, const Image& b) {
  return meanAbsDiff(a.view(), b.view());
}

/// "x=3 y=5 c=1 ours=10 ref=14" for the first channel value that differs by more than `tolerance`, "sizes
/// differ: 4x3 vs 5x3" for images of different sizes, "" when none does.
std::string firstMismatch(const ImageView& ours, const ImageView& ref, int tolerance);

}  // namespace convolab::test
