// SPDX-License-Identifier: MIT
// The CPU reference convolution: direct double-precision sum, border via borderInterpolate.
#include "convolab/reference.hpp"

#include <algorithm>
#include <cmath>

#include "convolab/error.hpp"

namespace convolab {

void referenceConvolve(const ImageView& in, const MutableImageView& out, const FilterSet& filter) {
  if (in.width != out.width || in.height != out.height)
    throw Error(ErrorKind::Usage, "referenceConvolve: input and output sizes differ");
  const int k = filter.size(), r = filter.radius();
  for (int c = 0; c < 3; ++c) {
    const ChannelFilter& f = filter.channel(c);
    const double border = filter.borderValue()[static_cast<size_t>(c)];
    for (int y = 0; y < in.height; ++y) {
      for (int x = 0; x < in.width; ++x) {
        double sum = 0;
        for (int j = 0; j < k; ++j) {
          const int sy = borderInterpolate(y + j - r, in.height, filter.border());
          for (int i = 0; i < k; ++i) {
            const int sx = borderInterpolate(x + i - r, in.width, filter.border());
            const double v = (sy < 0 || sx < 0) ? border : in.row(sy)[sx * 3 + c];
            sum += f.at(j, i) * v;
          }
        }
        const double value = std::nearbyint(f.offset + sum / f.divisor);
        out.row(y)[x * 3 + c] = static_cast<std::uint8_t>(std::clamp(value, 0.0, 255.0));
      }
    }
  }
}

}  // namespace convolab
