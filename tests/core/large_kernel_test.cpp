// SPDX-License-Identifier: MIT
// Large kernels (K 17, 31, 45, 63): every registered strategy that accepts the size against the CPU
// reference, on odd frames and frames smaller than the kernel. Iterates the registry like
// strategy_sweep_test; each strategy meets each K with one border (rotating, so each border meets every K
// across the strategies). fft runs every border at every K in fft_test.cpp. The main pass runs the strategies
// whose program does not unroll the K² taps (naive, dynamic); the others compile for 3 to 30 s a row on PoCL
// at these sizes, so they run with CONVOLAB_LARGE_K_ALL=1 (docs/TESTING.md, "Large kernels").
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "convolab/engine.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

struct LargeFrame {
  int width, height;
  std::size_t padding;
};
// 1×1 and 2×3 (the border answers almost every read), 23×17 (smaller than K ≥ 31), 67×41 (wider than 63).
constexpr LargeFrame kLargeFrames[] = {{1, 1, 0}, {2, 3, 0}, {23, 17, 5}, {67, 41, 0}};
constexpr int kLargeSizes[] = {17, 31, 45, 63};

using LargeParam = std::tuple<std::string, int, BorderMode>;

class LargeKernel : public ::testing::TestWithParam<LargeParam> {};

TEST_P(LargeKernel, MatchesReference) {
  const auto& [name, k, border] = GetParam();
  const bool mainPass = name == "naive" || name == "dynamic";
  if (!mainPass && !std::getenv("CONVOLAB_LARGE_K_ALL"))
    GTEST_SKIP() << name << " unrolls K² taps (seconds of compile on PoCL): CONVOLAB_LARGE_K_ALL=1 runs it";
  auto ctx = sharedContext();
  // Dense first; a strategy for low-rank filters (separable, lowrank) gets rank 1, then rank 2.
  const auto seed = static_cast<std::uint32_t>(k * 7 + static_cast<int>(border));
  const FilterSet kinds[] = {randomFilter(k, border, seed), rankFilter(k, {1, 1, 1}, border, seed),
                             rankFilter(k, {2, 2, 2}, border, seed)};
  const auto strategy = createStrategy(name);
  const auto accepted = std::find_if(std::begin(kinds), std::end(kinds), [&](const FilterSet& f) {
    return !strategy->unsupportedReason(*ctx, f);
  });
  if (accepted == std::end(kinds))
    GTEST_SKIP() << name << " does not apply at K=" << k << ": "
                 << *strategy->unsupportedReason(*ctx, kinds[2]);
  const FilterSet& filter = *accepted;
  Engine engine(ctx, name);
  engine.setFilter(filter);
  for (const LargeFrame& s : kLargeFrames) {
    SCOPED_TRACE(std::to_string(s.width) + "x" + std::to_string(s.height));
    const Image in =
        randomImage(s.width, s.height, static_cast<std::uint32_t>(s.width * 100 + s.height), s.padding);
    Image out(s.width, s.height, static_cast<std::size_t>(s.width) * 3 + s.padding);
    engine.process(in.view(), out.mutableView());
    ASSERT_EQ(engine.activeStrategy().substr(0, name.size()), name) << "fell back";
    const Image ref = referenceOf(in, filter);
    EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
        << firstMismatch(out.view(), ref.view(), kTolerance);
  }
}

std::vector<LargeParam> largeRows() {
  std::vector<LargeParam> rows;
  int index = 0;
  for (const std::string& name : strategyNames()) {
    if (name == kAutoStrategy) continue;
    if (name == "fft") continue;  // fft_test.cpp
    for (int kIndex = 0; kIndex < static_cast<int>(std::size(kLargeSizes)); ++kIndex) {
      const auto b = kAllBorderModes[static_cast<size_t>(index + kIndex) % std::size(kAllBorderModes)];
      rows.emplace_back(name, kLargeSizes[kIndex], b);
    }
    ++index;
  }
  return rows;
}

std::string largeRowName(const ::testing::TestParamInfo<LargeParam>& info) {
  const auto& [name, k, border] = info.param;
  return name + "_k" + std::to_string(k) + "_" + std::string(borderName(border));
}

INSTANTIATE_TEST_SUITE_P(All, LargeKernel, ::testing::ValuesIn(largeRows()), largeRowName);

}  // namespace
}  // namespace convolab::test
