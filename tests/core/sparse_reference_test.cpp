// SPDX-License-Identifier: MIT
// SparseReference: a chain's reference output at a few pixels equals referenceChain's whole frame there, for
// every border mode (wrap's far side, constant's border value), K up to 63, frames smaller than K, magnitude
// and switched-off steps; and it computes only the pixels the probe depends on.
#include "convolab/sparse_reference.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>

#include "convolab/border.hpp"
#include "convolab/error.hpp"
#include "convolab/reference.hpp"
#include "test_support.hpp"

namespace convolab {
namespace {

// 1–8 steps of random K (odd, up to 63), each with a random border (and border value), every third a
// magnitude of two filters of different K, some switched off.
FilterChain randomSparseChain(std::mt19937& rng) {
  std::uniform_int_distribution<int> steps(1, kMaxChainSteps), radius(0, 31), small(0, 3), border(0, 4);
  std::uniform_int_distribution<int> coin(0, 3);
  const int n = steps(rng);
  std::vector<ChainStep> chain;
  for (int i = 0; i < n; ++i) {
    const int k = 2 * (coin(rng) == 0 ? radius(rng) : small(rng)) + 1;
    const BorderMode b = kAllBorderModes[border(rng)];
    const FilterSet a = test::randomFilter(k, b, static_cast<std::uint32_t>(rng()));
    if (coin(rng) == 1) {
      const FilterSet other = test::randomFilter(2 * small(rng) + 1, b, static_cast<std::uint32_t>(rng()));
      chain.push_back(ChainStep::magnitude(a, FilterSet::make(other.channels(), b, a.borderValue())));
    } else {
      chain.push_back(ChainStep::single(a));
    }
    chain.back().enabled = n == 1 || coin(rng) != 2;
  }
  return FilterChain::make(std::move(chain));
}

std::string describe(const FilterChain& chain) {
  std::string s;
  for (const ChainStep& step : chain.steps())
    s += std::string(step.enabled ? "" : "off:") + (step.isMagnitude() ? "mag" : "K") +
         std::to_string(step.filter.size()) + "/" + std::string(borderName(step.filter.border())) + " ";
  return s;
}

// Corners, edges and the middle of a width × height frame, plus one random pixel.
std::vector<std::pair<int, int>> probes(int w, int h, std::mt19937& rng) {
  return {{0, 0},         {w - 1, 0},     {0, h - 1},
          {w - 1, h - 1}, {w / 2, 0},     {0, h / 2},
          {w - 1, h / 2}, {w / 2, h / 2}, {int(rng() % w), int(rng() % h)}};
}

TEST(SparseReferenceTest, EqualsTheWholeFrameReferenceOnRandomChains) {
  std::mt19937 rng(20261202);
  const std::pair<int, int> sizes[] = {{1, 1}, {2, 3}, {7, 5}, {37, 23}, {64, 9}, {13, 71}};
  int compared = 0;
  for (int round = 0; round < 60; ++round) {
    const auto [w, h] = sizes[round % std::size(sizes)];
    const FilterChain chain = randomSparseChain(rng);
    const Image in = test::randomImage(w, h, static_cast<std::uint32_t>(round), round % 2 ? 5 : 0);
    Image whole(w, h);
    referenceChain(in.view(), whole.mutableView(), chain);
    for (const auto [x, y] : probes(w, h, rng)) {
      // One pixel, all channels
      const SparseReference plan(w, h, chain, {x}, {y});
      const auto one = plan.run(in.view(), {true, true, true});
      ASSERT_TRUE(one);
      for (int c = 0; c < 3; ++c)
        ASSERT_EQ(int(one->at(x, y, c)), int(whole.view().row(y)[x * 3 + c]))
            << describe(chain) << w << "x" << h << " at " << x << "," << y << " c" << c;
      ++compared;
    }
    // A window of columns × rows around a probe (what the inspector asks for), one channel: the others 0.
    const int x = int(rng() % w), y = int(rng() % h), c = int(rng() % 3);
    std::vector<int> cols, rows;
    for (int d = -4; d <= 4; ++d) {
      cols.push_back(borderInterpolate(x + d, w, BorderMode::Wrap));
      rows.push_back(borderInterpolate(y + d, h, BorderMode::Reflect));
    }
    const auto window = SparseReference(w, h, chain, cols, rows).run(in.view(), {c == 0, c == 1, c == 2});
    ASSERT_TRUE(window);
    for (const int row : window->rows)
      for (const int col : window->columns)
        for (int k = 0; k < 3; ++k)
          ASSERT_EQ(int(window->at(col, row, k)), k == c ? int(whole.view().row(row)[col * 3 + k]) : 0)
              << describe(chain) << w << "x" << h << " at " << col << "," << row << " c" << k;
  }
  EXPECT_EQ(compared, 60 * 9);
}

// The cost is the probe's cone of dependence, not the frame: 3 steps of 5×5 under a pixel need the step
// outputs at 1, 5×5 and 9×9 pixels — also at a corner under wrap, whose window reads the far sides (the sets
// split, their sizes do not change). A plan that evaluated whole frames would count 3 · 101 · 81.
TEST(SparseReferenceTest, ComputesOnlyThePixelsTheProbeDependsOn) {
  const int w = 101, h = 81;
  const Image in = test::randomImage(w, h, 5);
  for (const BorderMode border : kAllBorderModes)
    for (const auto [x, y] : {std::pair{50, 40}, std::pair{0, 0}, std::pair{w - 1, 17}}) {
      std::vector<ChainStep> steps;
      for (std::uint32_t s = 0; s < 3; ++s)
        steps.push_back(ChainStep::single(test::randomFilter(5, border, s)));
      const FilterChain chain = FilterChain::make(steps);
      const SparseReference plan(w, h, chain, {x}, {y});
      const bool inside = x >= 4 && y >= 4 && x + 4 < w && y + 4 < h;
      // constant reads no pixel outside (the border value); replicate and the reflects fold the window onto
      // fewer pixels at an edge; wrap keeps every one
      if (inside || border == BorderMode::Wrap) {
        EXPECT_EQ(plan.pixelsPerChannel(), 1u + 25u + 81u) << borderName(border) << " " << x << "," << y;
        EXPECT_EQ(plan.columns(0).size(), 13u);
      } else {
        EXPECT_LT(plan.pixelsPerChannel(), 1u + 25u + 81u) << borderName(border) << " " << x << "," << y;
      }
      EXPECT_EQ(plan.multiplyAddsPerChannel(), plan.pixelsPerChannel() * 25);
      const auto result = plan.run(in.view(), {false, true, false});
      ASSERT_TRUE(result);
      EXPECT_EQ(result->evaluated, plan.pixelsPerChannel());  // one channel
      const auto all = plan.run(in.view(), {true, true, true});
      EXPECT_EQ(all->evaluated, 3 * plan.pixelsPerChannel());
      Image whole(w, h);
      referenceChain(in.view(), whole.mutableView(), chain);
      for (int c = 0; c < 3; ++c) EXPECT_EQ(int(all->at(x, y, c)), int(whole.view().row(y)[x * 3 + c]));
    }
  // Switched-off steps cost nothing; no step on: the input itself
  const FilterChain off =
      FilterChain::make({ChainStep::single(test::randomFilter(63, BorderMode::Wrap, 1), false)});
  const SparseReference copy(w, h, off, {7}, {9});
  EXPECT_EQ(copy.steps(), 0);
  EXPECT_EQ(copy.pixelsPerChannel(), 0u);
  const auto same = copy.run(in.view(), {true, true, true});
  EXPECT_EQ(same->evaluated, 0u);
  for (int c = 0; c < 3; ++c) EXPECT_EQ(same->at(7, 9, c), in.view().row(9)[7 * 3 + c]);
}

TEST(SparseReferenceTest, AStopRequestEndsTheRunAndBadInputIsRefused) {
  const Image in = test::randomImage(64, 48, 3);
  const FilterChain chain =
      FilterChain::make({ChainStep::single(test::randomFilter(9, BorderMode::Wrap, 2)),
                         ChainStep::single(test::randomFilter(9, BorderMode::Wrap, 3))});
  const SparseReference plan(64, 48, chain, {0}, {0});
  std::stop_source stop;
  stop.request_stop();
  EXPECT_FALSE(plan.run(in.view(), {true, true, true}, stop.get_token()));
  EXPECT_THROW(SparseReference(64, 48, chain, {64}, {0}), Error);
  EXPECT_THROW(SparseReference(64, 48, chain, {0}, {-1}), Error);
  const Image other = test::randomImage(32, 48, 3);
  EXPECT_THROW((void)plan.run(other.view(), {true, true, true}), Error);
}

// Not a check (no assertion on time, DESIGN §6): what the pixel inspector's probe of a chain's last step
// costs at 1080p — the step's input at its K×K window in one channel and at the pixel in the other two
// (StepProbe), through 7 steps before it — at a corner and in the middle, under wrap and reflect101.
// docs/BENCHMARKS.md has the numbers; run with --gtest_also_run_disabled_tests
// --gtest_filter='*ProbeCostAt1080p*'.
TEST(SparseReferenceTest, DISABLED_ProbeCostAt1080p) {
  const int w = 1920, h = 1080;
  const Image in = test::randomImage(w, h, 1);
  for (const int k : {3, 7, 15, 31, 63})
    for (const BorderMode border : {BorderMode::Wrap, BorderMode::Reflect101})
      for (const auto [x, y] : {std::pair{0, 0}, std::pair{w / 2, h / 2}}) {
        std::vector<ChainStep> before;
        for (std::uint32_t s = 0; s < 7; ++s)
          before.push_back(ChainStep::single(test::randomFilter(k, border, s)));
        const FilterChain chain = FilterChain::make(before);
        std::vector<int> cols, rows;
        for (int d = -(k / 2); d <= k / 2; ++d) {
          cols.push_back(borderInterpolate(x + d, w, border));
          rows.push_back(borderInterpolate(y + d, h, border));
        }
        const auto start = std::chrono::steady_clock::now();
        const SparseReference window(w, h, chain, cols, rows), centre(w, h, chain, {x}, {y});
        const auto a = window.run(in.view(), {true, false, false});
        const auto b = centre.run(in.view(), {false, true, true});
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        std::printf(
            "K %2d × 8 steps, %-10s at (%4d, %4d): %9.2f ms, %8llu pixel values, %.3f G multiply-adds\n", k,
            std::string(borderName(border)).c_str(), x, y, ms,
            static_cast<unsigned long long>(a->evaluated + b->evaluated),
            double(window.multiplyAddsPerChannel() + 2 * centre.multiplyAddsPerChannel()) / 1e9);
      }
}

}  // namespace
}  // namespace convolab
