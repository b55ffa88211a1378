// SPDX-License-Identifier: MIT
// Every registered strategy × border mode × K × frame size against the CPU reference, within kTolerance:
// every K with reflect101, two K with each other border (otherBorderRunsK). Iterates the registry: a new
// strategy is swept without editing this file.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>

#include "convolab/analysis.hpp"
#include "convolab/engine.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

struct Size {
  int width, height;
  std::size_t padding;  // extra bytes per row: exercises strided frames
};
// The largest frame is odd in both sides, so no strategy's tiles, strips or work-groups divide it, and spans
// several of them in each direction, without the cost of a camera-sized frame: the CPU reference and PoCL's
// unoptimised kernels (tests/core/CMakeLists.txt) grow with the pixels (it was 640x480 until 2026-12-04). The
// main and the sanitizer pass run the same sizes.
constexpr Size kSizes[] = {{1, 1, 0}, {2, 3, 0}, {17, 13, 0}, {33, 20, 7}, {321, 241, 0}};
constexpr int kFilterSizes[] = {1, 3, 5, 7, 15};

enum class FilterKind { Dense, Separable, Rank2 };

/// Dense random filters, plus rank-1 and rank-2 ones (test_support's rankFilter) so separable/lowrank do real
/// work.
FilterSet makeFilter(FilterKind kind, int k, BorderMode border, std::uint32_t seed) {
  switch (kind) {
    case FilterKind::Separable:
      return rankFilter(k, {1, 1, 1}, border, seed);
    case FilterKind::Rank2:
      return rankFilter(k, {2, 2, 2}, border, seed);
    case FilterKind::Dense:
      break;
  }
  return randomFilter(k, border, seed);
}

// Kind, border, K, then strategy: consecutive rows (which ctest -j starts together) are different strategies,
// so two processes never compile the same program at once; a program shared by rows (all but codegen's and
// sliding's depend only on border and K) is built by the first and read from the shared cache by the others.
using Param = std::tuple<FilterKind, BorderMode, int, std::string>;

class StrategySweep : public ::testing::TestWithParam<Param> {};

TEST_P(StrategySweep, MatchesReference) {
  const auto& [kind, border, k, name] = GetParam();
  auto ctx = sharedContext();
  const FilterSet filter =
      makeFilter(kind, k, border, static_cast<std::uint32_t>(k * 31 + static_cast<int>(border)));
  if (auto reason = createStrategy(name)->unsupportedReason(*ctx, filter))
    GTEST_SKIP() << name << " does not apply: " << *reason;

  Engine engine(ctx, name);
  engine.setFilter(filter);
  if (name == kAutoStrategy) {
    // auto measures once per row, at the largest size, and the smaller sizes reuse that choice through the
    // choice cache: every size still runs auto's delegation against the reference, without timing every
    // strategy and variant five times (on tiny frames, where all are within 2x, that built every variant).
    const Size& largest = kSizes[std::size(kSizes) - 1];
    const Image in = randomImage(largest.width, largest.height, 1);
    Image out(largest.width, largest.height);
    engine.process(in.view(), out.mutableView());
    for (const Size& s : kSizes)
      rememberAutoChoice(*ctx, filter, engine.activeStrategyId(), s.width, s.height);
  }
  for (const Size& s : kSizes) {
    SCOPED_TRACE(std::to_string(s.width) + "x" + std::to_string(s.height) + " padding " +
                 std::to_string(s.padding));
    const Image in =
        randomImage(s.width, s.height, static_cast<std::uint32_t>(s.width * 1000 + s.height), s.padding);
    Image out(s.width, s.height, static_cast<std::size_t>(s.width) * 3 + s.padding);
    Image ref(s.width, s.height);
    engine.process(in.view(), out.mutableView());
    // No silent fallback: the strategy under test must be the one that ran.
    ASSERT_EQ(engine.activeStrategy().substr(0, name.size()), name) << "notices: " << [&] {
      std::string all;
      for (auto& n : engine.takeNotices()) all += n + "; ";
      return all;
    }();
    referenceConvolve(in.view(), ref.mutableView(), filter);
    EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
        << firstMismatch(out.view(), ref.view(), kTolerance);
  }
}

std::string paramName(const ::testing::TestParamInfo<Param>& info) {
  const auto& [kind, border, k, name] = info.param;
  const char* kinds[] = {"dense", "rank1", "rank2"};
  return name + "_" + std::string(borderName(border)) + "_k" + std::to_string(k) + "_" +
         kinds[static_cast<int>(kind)];
}

std::vector<std::string> namesWithoutAuto() {
  std::vector<std::string> names;
  for (const auto& n : strategyNames())
    if (n != "auto") names.push_back(n);
  return names;
}

constexpr FilterKind kKinds[] = {FilterKind::Dense, FilterKind::Separable, FilterKind::Rank2};

/// Strategies whose program bakes the coefficients in (literal programs, core/src/literal_baker.hpp): each of
/// their rows compiles a program of its own (1-4 s on PoCL), where another strategy's rows share one program
/// per border and K.
bool bakesCoefficients(const std::string& name) {
  return name == "codegen" || name == "sliding";
}

/// The K a strategy runs with a border other than reflect101: the largest (its halo reflects several times
/// over the 1x1 and 2x3 frames) and one of the smaller ones, rotating with the border and the strategy, so
/// every (border, K) pair is still run by some strategy. The border reaches every kernel as a build option
/// (baseBuildOptions: common.cl's border_index, tile.cl's fill_tile, sliding.cl's strip_border_index), the
/// same code at every K; what changes with K (halo, tiles, unrolling) runs at every K with reflect101. Each
/// (strategy, border, K) is a program of its own on PoCL, compiled cold in a fresh clone: 13 programs a
/// strategy instead of 25 (docs/TESTING.md).
bool otherBorderRunsK(BorderMode border, int kIndex, int strategyIndex) {
  constexpr int kLargest = static_cast<int>(std::size(kFilterSizes)) - 1;
  if (kIndex == kLargest) return true;
  const auto borderIndex =
      std::find(std::begin(kAllBorderModes), std::end(kAllBorderModes), border) - std::begin(kAllBorderModes);
  return kIndex == (static_cast<int>(borderIndex) + strategyIndex) % kLargest;
}

/// Whether a row runs: with reflect101 every kind at every K; with another border the K above, every kind for
/// the strategies that share a program across kinds (the kind costs a run, not a build: separable and lowrank
/// take only some kinds), and for the baking ones the kind rotating with K (each row is a build).
bool rowRuns(FilterKind kind, BorderMode border, int kIndex, const std::string& name, int strategyIndex) {
  if (border == BorderMode::Reflect101) return true;
  if (!otherBorderRunsK(border, kIndex, strategyIndex)) return false;
  if (!bakesCoefficients(name)) return true;
  const auto borderIndex =
      std::find(std::begin(kAllBorderModes), std::end(kAllBorderModes), border) - std::begin(kAllBorderModes);
  return static_cast<int>(kind) ==
         (kIndex + static_cast<int>(borderIndex)) % static_cast<int>(std::size(kKinds));
}

/// Kind × border × K × strategy, in that order (see Param), less the rows left out above.
std::vector<Param> sweepRows() {
  std::vector<Param> rows;
  const std::vector<std::string> names = namesWithoutAuto();
  for (FilterKind kind : kKinds)
    for (BorderMode border : kAllBorderModes)
      for (int kIndex = 0; kIndex < static_cast<int>(std::size(kFilterSizes)); ++kIndex)
        for (int s = 0; s < static_cast<int>(names.size()); ++s)
          if (rowRuns(kind, border, kIndex, names[s], s))
            rows.emplace_back(kind, border, kFilterSizes[kIndex], names[s]);
  return rows;
}

INSTANTIATE_TEST_SUITE_P(All, StrategySweep, ::testing::ValuesIn(sweepRows()), paramName);

// auto once per filter structure (K × kind), not per border: it measures and then runs the strategies swept
// above with every border, and each of its rows re-measures every strategy (minutes on PoCL).
INSTANTIATE_TEST_SUITE_P(Auto, StrategySweep,
                         ::testing::Combine(::testing::ValuesIn(kKinds),
                                            ::testing::Values(BorderMode::Reflect101),
                                            ::testing::ValuesIn(kFilterSizes),
                                            ::testing::Values(std::string(kAutoStrategy))),
                         paramName);

}  // namespace
}  // namespace convolab::test
