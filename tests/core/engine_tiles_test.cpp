// SPDX-License-Identifier: MIT
// Huge frames: the engine processes frames above its tile limit in full-width tiles with a halo. A small
// artificial limit exercises tiles, their halos and the image borders at test sizes.
#include <gtest/gtest.h>

#include "convolab/engine.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

constexpr BorderMode kModes[] = {BorderMode::Replicate, BorderMode::Reflect, BorderMode::Reflect101,
                                 BorderMode::Wrap, BorderMode::Constant};

/// Runs `strategy` on a width×height frame with tiles of `windowRows` rows and checks against the
/// reference; returns the number of tiles used.
long long checkTiled(const std::string& strategy, const FilterSet& f, int width, int height, int windowRows,
                     std::size_t padding = 0) {
  Engine engine(sharedContext(), strategy);
  engine.setFilter(f);
  engine.setTileBytes(static_cast<std::size_t>(width) * 3 * static_cast<std::size_t>(windowRows));
  Image in = randomImage(width, height, 71 + static_cast<std::uint32_t>(height), padding);
  Image out(width, height, static_cast<std::size_t>(width) * 3 + padding), ref(width, height);
  const FrameTimings t = engine.process(in.view(), out.mutableView());
  referenceConvolve(in.view(), ref.mutableView(), f);
  EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
      << strategy << " " << borderName(f.border()) << " K=" << f.size() << " " << width << "x" << height
      << " window " << windowRows << ": " << firstMismatch(out.view(), ref.view(), kTolerance);
  EXPECT_EQ(t.stages.front().name, "upload");
  EXPECT_EQ(t.stages.back().name, "download");
  return engine.tilesProcessed();
}

TEST(EngineTiles, EveryBorderModeMatchesTheReferenceAcrossTiles) {
  for (BorderMode mode : kModes) {
    for (int k : {3, 7}) {
      const FilterSet f = randomFilter(k, mode, 72 + static_cast<std::uint32_t>(k));
      const int r = k / 2;
      // Several tiles with a short last one; the smallest window (one output row per tile); a frame
      // just one row taller than the window; padded rows.
      EXPECT_GT(checkTiled("constant", f, 23, 41, 2 * r + 5), 3);
      EXPECT_GT(checkTiled("constant", f, 9, 13, 2 * r + 1), 10);
      EXPECT_GE(checkTiled("constant", f, 17, 2 * r + 6, 2 * r + 5), 2);
      EXPECT_GT(checkTiled("constant", f, 11, 30, 2 * r + 4, 5), 3);
    }
  }
}

TEST(EngineTiles, EveryStrategyRunsTiledFrames) {
  // The point of tiling: the fast strategies run on frames larger than the device takes at once.
  for (const auto& entry : strategyRegistry()) {
    if (entry.name == "auto") continue;           // auto runs one of these; its measuring is tested elsewhere
    for (BorderMode mode : {BorderMode::Wrap}) {  // wrap: both tile paths (host-assembled and direct)
      const FilterSet f =
          entry.name == "separable" || entry.name == "lowrank"
              ? FilterSet::uniform(ChannelFilter{5, std::vector<double>(25, 1.0), 25, 0}, mode)
              : randomFilter(5, mode, 73);
      if (createStrategy(entry.name)->unsupportedReason(*sharedContext(), f)) continue;
      EXPECT_GT(checkTiled(std::string(entry.name), f, 40, 37, 12), 3) << entry.name;
    }
  }
}

TEST(EngineTiles, FramesWithinTheLimitAreNotTiled) {
  EXPECT_EQ(checkTiled("constant", randomFilter(3, BorderMode::Reflect, 74), 20, 10, 10), 0);
  Engine engine(sharedContext(), "constant");
  EXPECT_GT(engine.tileBytes(), 0u);
  EXPECT_LE(engine.tileBytes(), Engine::kDefaultTileBytes);
  // Kernels index bytes with 32-bit ints: no tile reaches 2 GiB, whatever is asked for.
  engine.setTileBytes(std::size_t{8} << 30);
  EXPECT_EQ(engine.tileBytes(), Engine::kMaxTileBytes);
}

}  // namespace
}  // namespace convolab::test
