// SPDX-License-Identifier: MIT
#include "image_difference.hpp"

#include <algorithm>
#include <cstdlib>

namespace convolab::test {
namespace {

bool sameSize(const ImageView& a, const ImageView& b) {
  return a.width == b.width && a.height == b.height;
}

std::span<const std::uint8_t> rowOf(const ImageView& image, int y) {
  return {image.row(y), static_cast<std::size_t>(image.width) * kBytesPerPixel};
}

}  // namespace

int maxAbsDiff(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  if (a.size() != b.size()) return kSizesDiffer;
  int worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(int{a[i]} - int{b[i]}));
  return worst;
}

int maxAbsDiff(const ImageView& a, const ImageView& b) {
  if (!sameSize(a, b)) return kSizesDiffer;
  int worst = 0;
  for (int y = 0; y < a.height; ++y) worst = std::max(worst, maxAbsDiff(rowOf(a, y), rowOf(b, y)));
  return worst;
}

double meanAbsDiff(const ImageView& a, const ImageView& b) {
  if (!sameSize(a, b)) return kSizesDiffer;
  const double values = double(a.width) * a.height * kBytesPerPixel;
  if (values == 0) return 0;
  double sum = 0;
  for (int y = 0; y < a.height; ++y) {
    const auto ra = rowOf(a, y), rb = rowOf(b, y);
    for (std::size_t x = 0; x < ra.size(); ++x) sum += std::abs(int{ra[x]} - int{rb[x]});
  }
  return sum / values;
}

std::string firstMismatch(const ImageView& ours, const ImageView& ref, int tolerance) {
  if (!sameSize(ours, ref))
    return "sizes differ: " + std::to_string(ours.width) + "x" + std::to_string(ours.height) + " vs " +
           std::to_string(ref.width) + "x" + std::to_string(ref.height);
  for (int y = 0; y < ours.height; ++y)
    for (int x = 0; x < ours.width * kBytesPerPixel; ++x)
      if (std::abs(int(ours.row(y)[x]) - int(ref.row(y)[x])) > tolerance)
        return "x=" + std::to_string(x / 3) + " y=" + std::to_string(y) + " c=" + std::to_string(x % 3) +
               " ours=" + std::to_string(ours.row(y)[x]) + " ref=" + std::to_string(ref.row(y)[x]);
  return {};
}

}  // namespace convolab::test
