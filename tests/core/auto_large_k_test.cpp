// SPDX-License-Identifier: MIT
// auto at large K (issue 31): the candidates whose build or run cannot repay are not measured, with a reason,
// and auto still picks the fastest of the others. The candidates carry the registry's names but are fakes
// whose times are injected (a K = 31 sweep on PoCL: fft 90 ms, dynamic 256 ms, naive 2 s; codegen's literal
// build alone takes minutes there), so the test times nothing and no busy machine can make it fail.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>

#include "convolab/auto_choices.hpp"
#include "convolab/config.hpp"
#include "strategies/auto_candidates.hpp"
#include "strategies/auto_measure.hpp"
#include "test_support.hpp"

namespace convolab::test::auto_large_k {
namespace {

constexpr const char* kNames[] = {"naive",   "image",   "tiled",   "codegen",
                                  "lowrank", "sliding", "dynamic", "fft"};

/// A candidate named kNames[I] that accepts every filter (fft: K ≥ 17, as the real one); never run.
template <int I>
class Fake : public Strategy {
 public:
  std::string name() const override { return kNames[I]; }
  std::optional<std::string> unsupportedReason(const Context&, const FilterSet& f) const override {
    if (name() == "fft" && f.size() < 17) return "K < 17";
    return std::nullopt;
  }
  void prepare(Context&, const FilterSet&, int, int) override {}
  std::vector<NamedEvent> enqueue(Context&, const FrameBuffers&, const std::vector<cl::Event>&) override {
    return {};
  }
};

template <int I>
std::unique_ptr<Strategy> makeFake() {
  return std::make_unique<Fake<I>>();
}

const std::vector<StrategyEntry>& fakes() {
  static const std::vector<StrategyEntry> entries{
      {kNames[0], "", &makeFake<0>}, {kNames[1], "", &makeFake<1>}, {kNames[2], "", &makeFake<2>},
      {kNames[3], "", &makeFake<3>}, {kNames[4], "", &makeFake<4>}, {kNames[5], "", &makeFake<5>},
      {kNames[6], "", &makeFake<6>}, {kNames[7], "", &makeFake<7>}};
  return entries;
}

/// Runs measureCandidates over the fakes with `times` (ms per name) injected; `timed` counts each name's
/// runs.
struct Measured {
  std::vector<AutoChoice> finalists;
  std::vector<auto_detail::Exclusion> excluded;
  std::map<std::string, int> timed;
  std::vector<std::string> order;
};

Measured measure(int k, const std::map<std::string, double>& times) {
  Measured run;
  auto_detail::setInjectedTimesForTesting([&](std::string_view name, const std::string&) {
    if (++run.timed[std::string(name)] == 1) run.order.emplace_back(name);
    return std::optional<double>(times.at(std::string(name)));
  });
  auto ctx = sharedContext();
  run.finalists =
      auto_detail::measureCandidates(fakes(), *ctx, randomFilter(k, BorderMode::Reflect101, 31), 64, 48,
                                     auto_detail::Clock::time_point::max(), nullptr, {}, &run.excluded);
  auto_detail::setInjectedTimesForTesting({});
  return run;
}

TEST(AutoLargeK, LeavesOutLiteralBuildsAndHopelessStrategies) {
  // codegen and sliding injected as the fastest: had they been measured they would win, so a pass also shows
  // they were not (a literal build of 961 taps takes minutes on PoCL). naive would have to be 2x faster than
  // dynamic to beat fft; image, on a CPU device, emulates its sampler. tiled (unrolled, but fast on a CPU) is
  // measured: on PoCL it ran beside fft at K = 31.
  const Measured run = measure(31, {{"fft", 90},
                                    {"lowrank", 400},
                                    {"dynamic", 256},
                                    {"naive", 2000},
                                    {"image", 10},
                                    {"tiled", 200},
                                    {"codegen", 60},
                                    {"sliding", 70}});
  ASSERT_FALSE(run.finalists.empty());
  const bool cpu = !sharedContext()->device().isGpu;
  EXPECT_EQ(auto_detail::fastest(run.finalists).strategy, cpu ? "fft" : "image");
  std::set<std::string> left{"codegen", "sliding", "naive"};
  if (cpu) left.insert("image");
  for (const auto& name : left) EXPECT_EQ(run.timed.count(name), 0u) << name << " was measured at K = 31";
  EXPECT_EQ(run.timed.count("tiled"), 1u);
  std::set<std::string> excluded;
  for (const auto& e : run.excluded) {
    excluded.insert(e.strategy);
    EXPECT_FALSE(e.reason.empty()) << e.strategy;
  }
  EXPECT_EQ(excluded, left);
  ASSERT_GE(run.order.size(), 3u);
  EXPECT_EQ(run.order[0], "lowrank");  // the factored and FFT candidates first, registry order among them
  EXPECT_EQ(run.order[1], "fft");
  EXPECT_EQ(run.order[2], "dynamic");  // then the generic one, whose time bounds naive's
}

TEST(AutoLargeK, MeasuresDirectStrategiesWhileTheyCanStillWin) {
  // K = 17: dynamic 61 ms, fft 79 ms. fft is not 2x faster than the generic kernel, so naive is measured too,
  // and so is the literal build (289 taps: up to 21 x 21 on a CPU, 19 x 19 on a GPU); codegen, injected
  // fastest, wins.
  const Measured run = measure(17, {{"fft", 79},
                                    {"lowrank", 400},
                                    {"dynamic", 61},
                                    {"naive", 480},
                                    {"image", 300},
                                    {"tiled", 50},
                                    {"codegen", 40},
                                    {"sliding", 45}});
  ASSERT_FALSE(run.finalists.empty());
  EXPECT_EQ(auto_detail::fastest(run.finalists).strategy, "codegen");
  EXPECT_EQ(run.timed.count("naive"), 1u);
  EXPECT_GT(run.timed.count("codegen"), 0u);
}

TEST(AutoLargeK, ALiteralBuildIsMeasuredUpTo19x19OnAGpuAnd21x21OnACpu) {
  // The H200 K sweep: codegen beat fft at K = 17 (0.062 vs 0.079 ms at 720p) and lost from K = 21 on. PoCL's
  // (2026-12-05, fft's columns path): codegen beat fft up to K = 21 (14.1 vs 18.3 ms) and lost at 23. The
  // builds there take seconds, not K = 63's minutes.
  using auto_detail::CandidateContext;
  using auto_detail::priorExclusion;
  const CandidateContext gpu{true, true, false}, cpu{true, true, true};
  for (int k : {17, 19}) {
    const FilterSet f = randomFilter(k, BorderMode::Reflect101, 5);
    EXPECT_EQ(priorExclusion("codegen", f, gpu), std::nullopt) << "K = " << k;
    EXPECT_EQ(priorExclusion("sliding", f, gpu), std::nullopt) << "K = " << k;
  }
  for (int k : {17, 19, 21}) {
    const FilterSet f = randomFilter(k, BorderMode::Reflect101, 5);
    EXPECT_EQ(priorExclusion("codegen", f, cpu), std::nullopt) << "K = " << k;
    EXPECT_EQ(priorExclusion("sliding", f, cpu), std::nullopt) << "K = " << k;
  }
  const auto at21 = priorExclusion("codegen", randomFilter(21, BorderMode::Reflect101, 5), gpu);
  ASSERT_TRUE(at21.has_value());
  EXPECT_NE(at21->find("over 361 on a GPU"), std::string::npos) << *at21;
  const auto at23 = priorExclusion("codegen", randomFilter(23, BorderMode::Reflect101, 5), cpu);
  ASSERT_TRUE(at23.has_value());
  EXPECT_NE(at23->find("over 441 on a CPU device"), std::string::npos) << *at23;
  // Without a cheaper path (no fft, no factoring) nothing is left out, whatever K.
  EXPECT_EQ(priorExclusion("codegen", randomFilter(21, BorderMode::Reflect101, 5), CandidateContext{}),
            std::nullopt);
}

TEST(AutoLargeK, SmallKernelsMeasureEveryCandidate) {
  // K = 7: fft declines, nothing is left out, and the literal build (the fastest here) wins.
  const Measured run = measure(7, {{"fft", 1},
                                   {"lowrank", 30},
                                   {"dynamic", 9},
                                   {"naive", 40},
                                   {"image", 20},
                                   {"tiled", 8},
                                   {"codegen", 6},
                                   {"sliding", 7}});
  EXPECT_TRUE(run.excluded.empty());
  EXPECT_EQ(run.timed.count("fft"), 0u);
  for (const char* name : {"codegen", "sliding", "tiled", "naive", "image", "dynamic", "lowrank"})
    EXPECT_GE(run.timed.count(name), 1u) << name;
  ASSERT_FALSE(run.finalists.empty());
  EXPECT_EQ(auto_detail::fastest(run.finalists).strategy, "codegen");
}

}  // namespace
}  // namespace convolab::test::auto_large_k
