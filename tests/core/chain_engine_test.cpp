// SPDX-License-Identifier: MIT
// The engine's chain path: every strategy of the registry runs a chain exactly as its steps run one after
// another (bit for bit), and as the CPU reference where the arithmetic is exact; magnitude and switched-off
// steps; per-step timings named by step; a one-filter chain runs as that filter.
#include <gtest/gtest.h>

#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

/// auto without measurements (its provisional strategy or a stored choice), so a chain of auto steps costs
/// no measuring in a quick test; restored afterwards.
class ChainEngineConfig {
 public:
  ChainEngineConfig() : m_saved(coreConfig()) {
    CoreConfig c = m_saved;
    c.autoMeasure = CoreConfig::AutoMeasure::Off;
    setCoreConfig(c);
  }
  ~ChainEngineConfig() { setCoreConfig(m_saved); }

 private:
  CoreConfig m_saved;
};

/// The chain's steps one after another, each a separate engine run with `strategy` (what `convolab-cli apply`
/// once per step gives): a filter step through setFilter, a magnitude through a one-step chain.
Image stepByStep(const std::string& strategy, const FilterChain& chain, const Image& in) {
  Image current = in;
  for (const ChainStep& step : chain.enabledSteps()) {
    Engine engine(sharedContext(), strategy);
    if (step.isMagnitude())
      engine.setChain(FilterChain::make({step}));
    else
      engine.setFilter(step.filter);
    current = convolve(engine, current);
  }
  return current;
}

Image referenceChainOf(const Image& in, const FilterChain& chain) {
  Image out(in.width, in.height);
  referenceChain(in.view(), out.mutableView(), chain);
  return out;
}

class ChainStrategies : public ::testing::TestWithParam<std::string> {};

// One 3-step exact chain per strategy (filter, magnitude, filter; K 3 and 5), its borders turned by the
// strategy's row so the registry covers every border mode; odd size, padded input rows.
TEST_P(ChainStrategies, ExactChainsEqualTheirStepsOneAfterAnother) {
  ChainEngineConfig config;
  const std::vector<std::string> names = strategyNames();
  const auto row =
      static_cast<std::uint32_t>(std::find(names.begin(), names.end(), GetParam()) - names.begin());
  const FilterChain chain = randomChain({3, 5, 3}, row, /*exact=*/true);
  const Image in = randomImage(29, 17, row, /*padding=*/5);
  Engine engine(sharedContext(), GetParam());
  engine.setChain(chain);
  const Image out = convolve(engine, in);
  EXPECT_EQ(firstMismatch(out.view(), stepByStep(GetParam(), chain, in).view(), 0), "")
      << engine.activeStrategyId().describe();
  // Exact arithmetic: the reference's bytes too, except a factorised pass's ±1 at .5 ties (exact_arithmetic).
  const int tolerance = GetParam() == "separable" || GetParam() == "lowrank" ? 1 : 0;
  EXPECT_EQ(firstMismatch(out.view(), referenceChainOf(in, chain).view(), tolerance), "")
      << engine.activeStrategyId().describe();
}

INSTANTIATE_TEST_SUITE_P(All, ChainStrategies, ::testing::ValuesIn(strategyNames()),
                         [](const auto& info) { return info.param; });

TEST(ChainEngine, LongChainsEveryBorderAndKUpTo15MatchTheReference) {
  ChainEngineConfig config;
  const Image in = randomImage(31, 19, 4);
  for (const auto& ks : std::vector<std::vector<int>>{{3, 15}, {3, 5, 7, 3, 5, 3, 15, 3}})
    for (std::uint32_t seed : {0u, 2u}) {
      const FilterChain chain = randomChain(ks, seed, /*exact=*/true);
      Engine engine(sharedContext(), "naive");
      engine.setChain(chain);
      EXPECT_EQ(firstMismatch(convolve(engine, in).view(), referenceChainOf(in, chain).view(), 0), "")
          << ks.size() << " steps, seed " << seed;
    }
}

TEST(ChainEngine, StepsAreTimedByNameAndSwitchedOffStepsSkipped) {
  ChainEngineConfig config;
  const FilterSet blur = exactFilter(3, BorderMode::Reflect101, 1);
  const FilterSet edge = FilterSet::make(exactFilter(3, BorderMode::Reflect101, 2, true).channels(),
                                         BorderMode::Reflect101, blur.borderValue());  // a magnitude's pair
  const FilterChain chain = FilterChain::make(
      {ChainStep::single(blur), ChainStep::single(edge, false), ChainStep::magnitude(edge, blur)});
  Engine engine(sharedContext(), "constant");
  engine.setChain(chain);
  const Image in = randomImage(17, 9, 3);
  Image out(in.width, in.height);
  const FrameTimings t = engine.process(in.view(), out.mutableView());
  std::vector<std::string> names;
  for (const StageTiming& s : t.stages) names.push_back(s.name);
  ASSERT_EQ(names.size(), 4u);
  EXPECT_EQ(names[0], "upload");
  EXPECT_EQ(names[1].rfind("step 1: ", 0), 0u) << names[1];
  EXPECT_EQ(names[2],
            "step 2: convolve_magnitude");  // the switched-off step is skipped: the magnitude is 2nd
  EXPECT_EQ(names[3], "download");
  EXPECT_EQ(engine.chainStepStrategies(), (std::vector<std::string>{"constant", "magnitude"}));
  EXPECT_EQ(t.strategy.note, "chain: 1 constant, 2 magnitude");
  EXPECT_EQ(firstMismatch(out.view(), referenceChainOf(in, chain).view(), 0), "");
}

TEST(ChainEngine, AOneFilterChainRunsAsThatFilterAndSetFilterEndsAChain) {
  ChainEngineConfig config;
  const FilterSet f = exactFilter(5, BorderMode::Wrap, 8);
  const Image in = randomImage(13, 11, 8);
  Engine engine(sharedContext(), "naive");
  engine.setChain(FilterChain::make({ChainStep::single(f), ChainStep::single(f, false)}));
  EXPECT_EQ(engine.filter(), f);  // the single-filter path: strategies, tiling and auto as before
  EXPECT_TRUE(engine.chainStepStrategies().empty());
  EXPECT_EQ(firstMismatch(convolve(engine, in).view(), referenceOf(in, f).view(), 0), "");
  engine.setChain(FilterChain::make({ChainStep::single(f), ChainStep::single(f)}));
  EXPECT_EQ(engine.chainStepStrategies().size(), 2u);
  engine.setFilter(f);
  EXPECT_TRUE(engine.chainStepStrategies().empty());
  // Every step off: a copy.
  engine.setChain(FilterChain::make({ChainStep::single(f, false), ChainStep::single(f, false)}));
  EXPECT_EQ(firstMismatch(convolve(engine, in).view(), in.view(), 0), "");
}

// The app's live engine (issue 30 "Live"): under auto a provisional chain runs at once on dynamic, step by
// step, and says which edits build nothing; made final, its steps get their auto instances.
TEST(ChainEngine, AProvisionalChainRunsDynamicAtOnceAndSaysWhatBuildsNothing) {
  ChainEngineConfig config;
  const FilterSet blur = exactFilter(3, BorderMode::Reflect101, 1);
  const FilterSet edge = exactFilter(5, BorderMode::Replicate, 2);
  const Image in = randomImage(23, 15, 4);
  auto ctx = sharedContext();
  Engine engine(ctx, "auto");
  engine.setFilter(blur);
  (void)convolve(engine, in);
  const FilterChain chain = FilterChain::make({ChainStep::single(blur), ChainStep::single(edge)});
  EXPECT_TRUE(engine.chainPreparesWithoutBuild(chain, in.width, in.height));
  engine.setChainProvisional(true);
  engine.setChain(chain);
  EXPECT_EQ(firstMismatch(convolve(engine, in).view(), referenceChainOf(in, chain).view(), 0), "");
  EXPECT_EQ(engine.chainStepStrategies(), (std::vector<std::string>{"dynamic", "dynamic"}));
  // A weight edit, a step switched off and a new filter step build nothing; a magnitude step does.
  const FilterSet edited = exactFilter(5, BorderMode::Replicate, 3);
  const FilterChain next =
      FilterChain::make({ChainStep::single(blur, false), ChainStep::single(edited), ChainStep::single(blur)});
  EXPECT_TRUE(engine.chainPreparesWithoutBuild(next, in.width, in.height));
  EXPECT_FALSE(engine.chainPreparesWithoutBuild(
      FilterChain::make({ChainStep::single(blur), ChainStep::magnitude(blur, blur)}), in.width, in.height));
  EXPECT_FALSE(engine.chainPreparesWithoutBuild(next, in.width + 2, in.height));
  const std::size_t programs = ctx->programsCreated();
  engine.setChain(next);
  EXPECT_EQ(firstMismatch(convolve(engine, in).view(), referenceChainOf(in, next).view(), 0), "");
  EXPECT_EQ(ctx->programsCreated(), programs);
  engine.setChainProvisional(false);  // what the app's preparer makes of it: auto per step
  EXPECT_EQ(firstMismatch(convolve(engine, in).view(), referenceChainOf(in, next).view(), 0), "");
  for (const std::string& step : engine.chainStepStrategies()) EXPECT_EQ(step.rfind("auto:", 0), 0u) << step;
}

}  // namespace
}  // namespace convolab::test
