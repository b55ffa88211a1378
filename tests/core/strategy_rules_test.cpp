// SPDX-License-Identifier: MIT
// Strategy rules: when strategies decline (device limits, filter structure) and why, what fits small devices,
// and re-prepare after coefficient and size changes (over the whole registry).
#include <gtest/gtest.h>

#include <mutex>

#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/error.hpp"
#include "convolab/log.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

void expectMatchesReference(const Image& out, const Image& in, const FilterSet& filter) {
  const Image ref = referenceOf(in, filter);
  EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
      << firstMismatch(out.view(), ref.view(), kTolerance);
}

TEST(LocalStrategy, ShrinksTheTileOrDeclinesWhenLocalMemoryIsSmall) {
  DeviceInfo info = sharedContext()->device();
  const FilterSet f = randomFilter(15, BorderMode::Wrap, 13);
  info.localMemBytes = 2048;  // 16×8 with a K = 15 halo needs more: the tile must shrink
  Context small(info);
  auto s = createStrategy("local");
  ASSERT_FALSE(s->unsupportedReason(small, f));
  const Image in = randomImage(29, 18, 6);
  expectMatchesReference(runDirect(*s, small, f, in), in, f);

  info.localMemBytes = 512;  // not even a 1×1 group's 15×15 tile fits
  Context tiny(info);
  const auto reason = createStrategy("local")->unsupportedReason(tiny, f);
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("local memory"), std::string::npos) << *reason;
}

TEST(ImageStrategy, DeclinesWithoutImageSupport) {
  DeviceInfo info = sharedContext()->device();
  info.imageSupport = false;
  Context ctx(info);
  const auto reason =
      createStrategy("image")->unsupportedReason(ctx, randomFilter(3, BorderMode::Reflect, 1));
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("image support"), std::string::npos) << *reason;
}

TEST(ImageStrategy, FrameLargerThanImageLimitFallsBackWithNotice) {
  DeviceInfo info = sharedContext()->device();
  if (!info.imageSupport) GTEST_SKIP() << "device has no image support";
  info.image2dMaxWidth = 32;
  Engine engine(std::make_shared<Context>(info), "image");
  const FilterSet f = randomFilter(5, BorderMode::Reflect101, 2);
  engine.setFilter(f);
  const Image small = randomImage(31, 9, 7), large = randomImage(33, 9, 8);
  Image out(31, 9), outLarge(33, 9);
  engine.process(small.view(), out.mutableView());
  EXPECT_EQ(engine.activeStrategy(), "image");
  expectMatchesReference(out, small, f);
  engine.process(large.view(), outLarge.mutableView());
  EXPECT_NE(engine.activeStrategy(), "image");
  expectMatchesReference(outLarge, large, f);
  bool said = false;
  for (const auto& n : engine.takeNotices()) said = said || n.find("image limit") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(SeparableStrategy, ReasonNamesTheRankAndChannel) {
  const FilterSet f = rankFilter(5, {1, 2, 1}, BorderMode::Reflect101, 3);
  const auto reason = createStrategy("separable")->unsupportedReason(*sharedContext(), f);
  ASSERT_TRUE(reason);
  EXPECT_EQ(*reason, "filter is not separable (rank 2 in channel G)");
}

// separable is lowrank with one term: on rank-1 filters both rows run one program, so auto times it once.
TEST(SeparableStrategy, IsLowrankWithOneTermAndAutoTimesItOnce) {
  auto ctx = sharedContext();
  const FilterSet rank1 = rankFilter(7, {1, 1, 0}, BorderMode::Reflect101, 6);
  const FilterSet rank2 = rankFilter(7, {1, 2, 1}, BorderMode::Reflect101, 6);
  auto separable = createStrategy("separable"), lowrank = createStrategy("lowrank");
  EXPECT_EQ(separable->kernelIdentity(*ctx, rank1), lowrank->kernelIdentity(*ctx, rank1));
  EXPECT_TRUE(separable->unsupportedReason(*ctx, rank2));  // rank 2: only lowrank runs it, with two terms
  EXPECT_NE(lowrank->kernelIdentity(*ctx, rank2), lowrank->kernelIdentity(*ctx, rank1));
  EXPECT_NE(createStrategy("constant")->kernelIdentity(*ctx, rank1), lowrank->kernelIdentity(*ctx, rank1));

  // A context without the on-disk cache, so auto measures instead of reusing an earlier run's choice; every
  // measurement logged (to a sink this test reads), one timed run each.
  const CoreConfig saved = coreConfig();
  CoreConfig config = saved;
  config.noProgramCache = true;
  config.autoVerbose = true;
  config.autoRuns = 1;
  config.autoMeasure = CoreConfig::AutoMeasure::Now;  // measured in prepare(), on this thread
  setCoreConfig(config);
  std::string log;
  std::mutex logMutex;
  const LogSink previous = setLogSink([&](LogLevel, std::string_view message) {
    std::lock_guard lock(logMutex);
    log.append(message).append("\n");
  });
  {
    Context fresh(ctx->device());
    auto chooser = createStrategy("auto");
    chooser->prepare(fresh, rankFilter(7, {1, 1, 1}, BorderMode::Wrap, 7), 23, 9);
  }
  setLogSink(previous);
  setCoreConfig(saved);
  EXPECT_NE(log.find("auto:   separable"), std::string::npos) << log;
  EXPECT_EQ(log.find("auto:   lowrank"), std::string::npos) << log;
}

TEST(LowrankStrategy, MixedChannelRanksIncludingAZeroChannel) {
  auto ctx = sharedContext();
  for (BorderMode border : kAllBorderModes) {
    SCOPED_TRACE(std::string(borderName(border)));
    const FilterSet f = rankFilter(7, {1, 0, 2}, border, 4);
    auto s = createStrategy("lowrank");
    ASSERT_FALSE(s->unsupportedReason(*ctx, f));
    const Image in = randomImage(19, 11, 9);
    expectMatchesReference(runDirect(*s, *ctx, f, in), in, f);
  }
}

TEST(LowrankStrategy, DeclinesWhenNotCheaperThanDense) {
  auto ctx = sharedContext();
  auto s = createStrategy("lowrank");
  EXPECT_FALSE(s->unsupportedReason(*ctx, rankFilter(7, {2, 2, 1}, BorderMode::Reflect101, 5)));
  const auto reason = s->unsupportedReason(*ctx, rankFilter(7, {1, 3, 1}, BorderMode::Reflect101, 5));
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("rank 3"), std::string::npos) << *reason;
}

// Coefficient-only changes re-upload weights (and edge terms, or run codegen's generic kernel until edits
// pause); frame size changes reallocate. Every strategy that accepts the filters must stay the active one
// throughout and match the reference after every change.
class StrategyReprepare : public ::testing::TestWithParam<std::string> {};

TEST_P(StrategyReprepare, CoefficientAndSizeChangesStayCorrect) {
  const std::string& name = GetParam();
  auto ctx = sharedContext();
  Engine engine(ctx, name);
  const FilterSet a = rankFilter(7, {1, 1, 1}, BorderMode::Constant, 20);
  const FilterSet b = rankFilter(7, {1, 1, 1}, BorderMode::Constant, 21);
  if (auto reason = createStrategy(name)->unsupportedReason(*ctx, a))
    GTEST_SKIP() << *reason;  // e.g. image on a device without images
  struct Step {
    const FilterSet* filter;
    int w, h;
  };
  for (const Step& step : {Step{&a, 23, 17}, Step{&b, 23, 17}, Step{&b, 40, 9}, Step{&a, 5, 30}}) {
    const Image in = randomImage(step.w, step.h, static_cast<std::uint32_t>(step.w * 7 + step.h));
    Image out(step.w, step.h);
    engine.setFilter(*step.filter);
    engine.process(in.view(), out.mutableView());
    EXPECT_EQ(engine.activeStrategy().substr(0, name.size()), name);
    expectMatchesReference(out, in, *step.filter);
  }
}

std::vector<std::string> namesWithoutAuto() {
  std::vector<std::string> names;
  for (const auto& n : strategyNames())
    if (n != "auto") names.push_back(n);  // auto delegates to these; its re-prepare is the sweep's
  return names;
}

INSTANTIATE_TEST_SUITE_P(Registry, StrategyReprepare, ::testing::ValuesIn(namesWithoutAuto()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace convolab::test
