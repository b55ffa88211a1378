// SPDX-License-Identifier: MIT
// PixelProbe: the convolution of one pixel of one channel, spelled out with the filter's border rule.
#include "pixel_probe.hpp"

#include <algorithm>
#include <cmath>

#include "convolab/border.hpp"

namespace convolab::lab {

PixelProbe probePixel(const ImageView& input, const ImageView& output, const FilterSet& filter, int x, int y,
                      int channel) {
  PixelProbe p;
  p.x = x;
  p.y = y;
  p.channel = channel;
  for (int c = 0; c < 3; ++c) {
    p.input[c] = input.row(y)[x * kBytesPerPixel + c];
    if (output.data) p.output[c] = output.row(y)[x * kBytesPerPixel + c];
  }
  const ChannelFilter& f = filter.channel(channel);
  const int k = f.size, r = f.radius();
  p.size = k;
  p.divisor = f.divisor;
  p.offset = f.offset;
  p.weights = f.matrix;
  double acc = 0;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      const int sx = borderInterpolate(x + i - r, input.width, filter.border());
      const int sy = borderInterpolate(y + j - r, input.height, filter.border());
      const double v = sx < 0 || sy < 0 ? filter.borderValue()[static_cast<size_t>(channel)]
                                        : input.row(sy)[sx * kBytesPerPixel + channel];
      p.neighbours.push_back(v);
      acc += f.at(j, i) * v;
    }
  p.sum = f.offset + acc / f.divisor;
  p.expected = static_cast<int>(std::clamp(std::round(p.sum), 0.0, 255.0));
  return p;
}

}  // namespace convolab::lab
