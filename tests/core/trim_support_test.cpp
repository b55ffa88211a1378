// SPDX-License-Identifier: MIT
// FilterSet::trimmedToSupport (what auto runs instead of the declared filter, issue 34.12): a ring is cut
// only when every weight in it, of every channel, is zero, whatever its sign. Sharpen and edge presets have
// their negative weights in the outer ring: cutting that ring would turn a sharpen into a brightness change.
#include <gtest/gtest.h>

#include "convolab/filter.hpp"
#include "convolab/reference.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

/// A 3×3 whose outer ring holds only negative weights (sharpen, an edge detector), in a 7×7 as an editor
/// keeps it; channel `c` gets its own centre so the three differ.
FilterSet negativeRingIn7(BorderMode border) {
  std::array<ChannelFilter, kChannels> channels;
  for (int c = 0; c < kChannels; ++c) {
    ChannelFilter f;
    f.size = 3;
    f.matrix = {0, -1, 0, -1, 5.0 + c, -1, 0, -1, 0};
    f.divisor = 1.0 + c;
    channels[static_cast<size_t>(c)] = f;
  }
  return FilterSet::make(channels, border).resizedTo(7);
}

TEST(TrimSupport, ARingOfNegativeWeightsIsKept) {
  const FilterSet seven = negativeRingIn7(BorderMode::Reflect101);
  const FilterSet trimmed = seven.trimmedToSupport();
  EXPECT_EQ(trimmed.size(), 3);
  EXPECT_EQ(trimmed.channel(1).at(0, 1), -1.0);
  EXPECT_EQ(trimmed.channel(2).at(1, 1), 7.0);
  // Only negative weights two rings out (a 5×5 edge detector's outer ring): 5×5, not 1×1 or 3×3.
  auto channels = seven.channels();
  for (auto& c : channels) {
    c.matrix.assign(49, 0.0);
    c.matrix[3 * 7 + 3] = 1;
    c.matrix[1 * 7 + 1] = -0.5;  // ring 2
  }
  EXPECT_EQ(FilterSet::make(channels, BorderMode::Reflect101).trimmedToSupport().size(), 5);
}

TEST(TrimSupport, TheTrimmedFilterGivesTheSameOutputAtEveryBorder) {
  const Image in = randomImage(23, 17, 41);
  for (BorderMode border : kAllBorderModes) {
    const FilterSet seven = negativeRingIn7(border);
    Image a(in.width, in.height), b(in.width, in.height);
    referenceConvolve(in.view(), a.mutableView(), seven);
    referenceConvolve(in.view(), b.mutableView(), seven.trimmedToSupport());
    EXPECT_EQ(maxAbsDiff(a.view(), b.view()), 0) << borderName(border);
    // And it is not the identity: the sharpen does something to a random image.
    EXPECT_GT(maxAbsDiff(a.view(), in.view()), 50) << borderName(border);
  }
}

}  // namespace
}  // namespace convolab::test
