// SPDX-License-Identifier: MIT
// Per-channel divisors and offsets over three equal matrices, through every file form (issue 34.12): a
// writer that folds equal matrices into one top-level "matrix" must keep each channel's own scalars.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "convolab/filter.hpp"
#include "convolab/filter_io.hpp"

using namespace convolab;

namespace {

/// Three channels with the same 3×3 matrix; `divisors` and `offsets` per channel.
FilterSet equalMatrices(std::array<double, 3> divisors, std::array<double, 3> offsets) {
  std::array<ChannelFilter, kChannels> channels;
  for (int c = 0; c < kChannels; ++c) {
    channels[c].size = 3;
    channels[c].matrix = {1, 2, 1, 2, 4, 2, 1, 2, 1};
    channels[c].divisor = divisors[c];
    channels[c].offset = offsets[c];
  }
  return FilterSet::make(channels, BorderMode::Wrap, {0, 0, 0}, "per-channel");
}

}  // namespace

TEST(PerChannelIo, EqualMatricesKeepTheirOwnDivisorsAndOffsetsInEveryForm) {
  const auto file = std::filesystem::temp_directory_path() /
                    ("convolab-per-channel-" + std::to_string(::getpid()) + ".json");
  for (const FilterSet& f : {equalMatrices({16, 8, 4}, {0, 0, 0}), equalMatrices({16, 16, 16}, {0, 10, -5}),
                             equalMatrices({16, 8, 4}, {3, 0, -128}), equalMatrices({2, 2, 2}, {1, 1, 1})}) {
    const std::string where = toFilterText(f);
    EXPECT_EQ(parseFilterJson(toFilterJson(f), "json"), f) << toFilterJson(f);
    const FilterSet text = parseFilterText(toFilterText(f), f, "text");  // text keeps no border or name
    EXPECT_EQ(text.channels(), f.channels()) << where;
    saveFilterFile(file, f, true);  // a user preset is such a file
    EXPECT_EQ(loadFilterFile(file), f) << where;
    for (int c = 0; c < kChannels; ++c) {
      EXPECT_EQ(parseFilterJson(toFilterJson(f), "json").channel(c).divisor, f.channel(c).divisor) << c;
      EXPECT_EQ(text.channel(c).offset, f.channel(c).offset) << c;
    }
  }
  std::filesystem::remove(file);
}
