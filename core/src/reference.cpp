// SPDX-License-Identifier: MIT
// The CPU reference convolution: direct double-precision sum, border via borderInterpolate.
#include "convolab/reference.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "convolab/error.hpp"

namespace convolab {

void referenceConvolve(const ImageView& in, const MutableImageView& out, const FilterSet& filter) {
  if (in.width != out.width || in.height != out.height)
    throw Error(ErrorKind::Usage, "referenceConvolve: input and output sizes differ");
  const int k = filter.size(), r = filter.radius();
  // Source columns and rows of every tap, looked up once (-1: outside, the constant border) instead of once
  // per tap and pixel; the sums themselves are unchanged, in the same order.
  std::vector<int> sxOf(static_cast<size_t>(in.width) * static_cast<size_t>(k));
  for (int x = 0; x < in.width; ++x)
    for (int i = 0; i < k; ++i)
      sxOf[static_cast<size_t>(x * k + i)] = borderInterpolate(x + i - r, in.width, filter.border());
  std::vector<int> syOf(static_cast<size_t>(k));
  for (int c = 0; c < 3; ++c) {
    const ChannelFilter& f = filter.channel(c);
    const double border = filter.borderValue()[static_cast<size_t>(c)];
    for (int y = 0; y < in.height; ++y) {
      for (int j = 0; j < k; ++j)
        syOf[static_cast<size_t>(j)] = borderInterpolate(y + j - r, in.height, filter.border());
      for (int x = 0; x < in.width; ++x) {
        const int* sx = &sxOf[static_cast<size_t>(x * k)];
        double sum = 0;
        for (int j = 0; j < k; ++j) {
          const int sy = syOf[static_cast<size_t>(j)];
          const std::uint8_t* row = sy < 0 ? nullptr : in.row(sy);
          const double* w = &f.matrix[static_cast<size_t>(j * k)];
          for (int i = 0; i < k; ++i) {
            const double v = (row == nullptr || sx[i] < 0) ? border : row[sx[i] * 3 + c];
            sum += w[i] * v;
          }
        }
        const double value = std::nearbyint(f.offset + sum / f.divisor);
        out.row(y)[x * 3 + c] = static_cast<std::uint8_t>(std::clamp(value, 0.0, 255.0));
      }
    }
  }
}

}  // namespace convolab
