// SPDX-License-Identifier: MIT
// PixelProbe: the convolution of one pixel of one channel, spelled out with the filter's border rule.
#include "pixel_probe.hpp"

#include <algorithm>
#include <cmath>

#include "convolab/border.hpp"
#include "convolab/saturate_round.hpp"

namespace convolab::lab {

PixelProbe probePixel(const ImageView& input, const ImageView& output, const FilterSet& filter, int x, int y,
                      int channel) {
  std::array<int, 3> out{};
  for (int c = 0; c < 3; ++c)
    if (output.data) out[static_cast<std::size_t>(c)] = output.row(y)[x * kBytesPerPixel + c];
  return probePixel([&input](int sx, int sy, int c) { return int(input.row(sy)[sx * kBytesPerPixel + c]); },
                    input.width, input.height, out, filter, x, y, channel);
}

PixelProbe probePixel(const std::function<int(int x, int y, int c)>& input, int width, int height,
                      const std::array<int, 3>& output, const FilterSet& filter, int x, int y, int channel) {
  PixelProbe p;
  p.x = x;
  p.y = y;
  p.channel = channel;
  p.output = output;
  for (int c = 0; c < 3; ++c) p.input[static_cast<std::size_t>(c)] = input(x, y, c);
  const ChannelFilter& f = filter.channel(channel);
  const int k = f.size, r = f.radius();
  p.size = k;
  p.divisor = f.divisor;
  p.offset = f.offset;
  p.weights = f.matrix;
  double acc = 0;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      const int sx = borderInterpolate(x + i - r, width, filter.border());
      const int sy = borderInterpolate(y + j - r, height, filter.border());
      const double v =
          sx < 0 || sy < 0 ? filter.borderValue()[static_cast<size_t>(channel)] : input(sx, sy, channel);
      p.neighbours.push_back(v);
      acc += f.at(j, i) * v;
    }
  p.sum = f.offset + acc / f.divisor;
  p.expected = saturateRound(p.sum);
  return p;
}

}  // namespace convolab::lab
