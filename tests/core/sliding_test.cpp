// SPDX-License-Identifier: MIT
// sliding: generated source (zero taps skipped, rank-1 single pass) and both styles (GPU word loads/stores,
// CPU vector loads/stores) against the reference on odd shapes, unaligned rows and every border.
#include <gtest/gtest.h>

#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab {
// Defined in core/src/strategies/sliding.cpp (no public header on purpose).
std::string generateSlidingSource(const FilterSet& filter, bool gpuStyle);
}  // namespace convolab

namespace convolab::test {
namespace {

/// A random rank-1 filter (outer product per channel), so the single-pass separable kernel runs.
FilterSet rank1Filter(int k, BorderMode border, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::array<ChannelFilter, 3> ch;
  for (auto& f : ch) {
    f.size = k;
    f.matrix.resize(static_cast<size_t>(k * k));
    std::vector<double> col(static_cast<size_t>(k)), row(static_cast<size_t>(k));
    for (auto& v : col) v = d(rng);
    for (auto& v : row) v = d(rng);
    double abs = 0;
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i)
        abs += std::abs(f.matrix[static_cast<size_t>(j * k + i)] =
                            col[static_cast<size_t>(j)] * row[static_cast<size_t>(i)]);
    f.divisor = abs / 1.5;
    f.offset = 128;
  }
  return FilterSet::make(ch, border, {10, 200, 90}, "rank1");
}

TEST(Sliding, GeneratedSourceSkipsZeroTaps) {
  // A 5×5 with three non-zero taps (per channel, so no rank-1 plan): exactly 3 taps × 3 chunks of FMAs.
  std::array<ChannelFilter, 3> ch;
  for (int c = 0; c < 3; ++c) {
    ch[static_cast<size_t>(c)].size = 5;
    ch[static_cast<size_t>(c)].matrix.assign(25, 0.0);
    ch[static_cast<size_t>(c)].matrix[1] = 0.5 + c;
    ch[static_cast<size_t>(c)].matrix[12] = 1.0;
    ch[static_cast<size_t>(c)].matrix[23] = -0.25 * (c + 1);
  }
  const FilterSet filter = FilterSet::make(ch, BorderMode::Reflect101, {0, 0, 0}, "sparse");
  const std::string gpu = generateSlidingSource(filter, true);
  EXPECT_EQ(occurrences(gpu, "fma("), 9) << gpu;
  EXPECT_NE(gpu.find("dense"), std::string::npos);
}

TEST(Sliding, RankOneFilterIsOnePass) {
  const FilterSet filter = rank1Filter(7, BorderMode::Reflect101, 5);
  for (bool gpu : {true, false}) {
    const std::string src = generateSlidingSource(filter, gpu);
    EXPECT_NE(src.find("rank-1 single pass"), std::string::npos);
    EXPECT_EQ(occurrences(src, "fma("), 2 * 7 * 3) << "7 horizontal + 7 vertical taps, 3 chunks each";
    EXPECT_EQ(src.find("__local"), std::string::npos) << "no local memory";
    EXPECT_EQ(src.find("barrier"), std::string::npos);
  }
}

TEST(Sliding, RoundsHalfToEvenAndSaturates) {
  // K = 1, weight 0.5, offset -0.25·0 ... : every x.5 result must round to even; weights 3 and -1 saturate.
  for (double weight : {0.5, 1.5, 3.0, -1.0}) {
    std::array<ChannelFilter, 3> ch;
    for (auto& f : ch) {
      f.size = 1;
      f.matrix = {weight};
      f.divisor = 1;
      f.offset = weight < 0 ? 127.5 : 0;
    }
    const FilterSet filter = FilterSet::make(ch, BorderMode::Replicate, {0, 0, 0}, "half");
    Image in(86, 3);  // every byte value once
    for (size_t i = 0; i < in.pixels.size(); ++i) in.pixels[i] = static_cast<std::uint8_t>(i);
    for (const char* variant : {"s4x4-wg8x1-c0", "s8x4-wg2x1-c1"}) {
      auto s = createStrategy("sliding");
      s->setTuningVariant(variant);
      const Image out = runDirect(*s, *sharedContext(), filter, in);
      const Image ref = referenceOf(in, filter);
      EXPECT_EQ(maxAbsDiff(out.view(), ref.view()), 0)
          << variant << " weight " << weight << ": " << firstMismatch(out.view(), ref.view(), 0);
    }
  }
}

TEST(Sliding, EveryStyleMatchesReference) {
  // The sweep runs the device's own style; here both styles run on whatever device this is, with odd strips
  // and widths whose rows are not word-aligned (the GPU style realigns its word loads).
  // "-u3": three rows per loop iteration, so strips end part-way through an unrolled iteration.
  constexpr const char* kVariants[] = {"s4x8-wg32x2-c0", "s2x5-wg3x2-c0-u3", "s16x32-wg16x1-c1",
                                       "s8x7-wg3x1-c1"};
  struct Case {
    int k;
    BorderMode border;
    bool rank1;
  };
  constexpr Case kCases[] = {{1, BorderMode::Reflect101, false}, {3, BorderMode::Replicate, false},
                             {3, BorderMode::Reflect, false},    {3, BorderMode::Wrap, false},
                             {3, BorderMode::Constant, false},   {7, BorderMode::Reflect101, false},
                             {7, BorderMode::Constant, true},    {5, BorderMode::Wrap, true},
                             {9, BorderMode::Reflect, false}};
  for (const char* variant : kVariants) {
    const bool oddShape = variant == kVariants[1] || variant == kVariants[3];
    for (const auto& [k, border, rank1] : kCases) {
      // Every border for the two default-like shapes; the odd shapes test geometry (and rank 1, K = 9).
      if (oddShape && k == 3 && border != BorderMode::Replicate) continue;
      const auto seed = static_cast<std::uint32_t>(k * 17 + static_cast<int>(border));
      const FilterSet filter = rank1 ? rank1Filter(k, border, seed) : randomFilter(k, border, seed);
      auto strategy = createStrategy("sliding");
      strategy->setTuningVariant(variant);
      for (auto [w, h] : {std::pair{1, 1}, {2, 3}, {37, 29}, {128, 20}, {130, 67}}) {
        SCOPED_TRACE(std::string(variant) + " k" + std::to_string(k) + " " + std::string(borderName(border)) +
                     (rank1 ? " rank1 " : " dense ") + std::to_string(w) + "x" + std::to_string(h));
        const Image in = randomImage(w, h, static_cast<std::uint32_t>(w * 5 + h));
        const Image out = runDirect(*strategy, *sharedContext(), filter, in);
        const Image ref = referenceOf(in, filter);
        EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
            << firstMismatch(out.view(), ref.view(), kTolerance);
      }
    }
  }
}

}  // namespace
}  // namespace convolab::test
