// SPDX-License-Identifier: MIT
// auto's live rules: a new structure runs at once on the provisional strategy while the measurement waits or
// runs; border, divisor, offset and zero-padding edits keep the structure's key (no new measurement).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "convolab/auto_choices.hpp"
#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/reference.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

/// A context whose auto choices live in memory only, so "no stored choice" is true whatever ran before.
std::shared_ptr<Context> contextWithoutStoredChoices() {
  const CoreConfig saved = coreConfig();
  CoreConfig noCache = saved;
  noCache.noProgramCache = true;
  setCoreConfig(noCache);
  auto ctx = std::make_shared<Context>(sharedContext()->device());
  setCoreConfig(saved);
  return ctx;
}

/// Applies `config` for the test's lifetime.
class ConfigScope {
 public:
  explicit ConfigScope(const CoreConfig& config) : m_saved(coreConfig()) { setCoreConfig(config); }
  ~ConfigScope() { setCoreConfig(m_saved); }

 private:
  CoreConfig m_saved;
};

TEST(FilterSupport, TrimmingCutsOnlyZeroRingsAndKeepsTheOutput) {
  const FilterSet seven = randomFilter(7, BorderMode::Wrap, 3);
  const FilterSet fifteen = seven.resizedTo(15);
  EXPECT_EQ(fifteen.trimmedToSupport().channels(), seven.channels());
  EXPECT_EQ(seven.trimmedToSupport(), seven);  // nothing to cut
  // One non-zero tap in the outer ring keeps the whole 15×15.
  auto channels = fifteen.channels();
  channels[2].matrix[14] = 0.25;  // row 0, column 14
  const FilterSet ringed = FilterSet::make(channels, BorderMode::Wrap);
  EXPECT_EQ(ringed.trimmedToSupport().size(), 15);
  // The same output: trimming is exact under every border (wrap shown here, on a frame smaller than K).
  const Image in = randomImage(11, 9, 5);
  Image a(11, 9), b(11, 9);
  referenceConvolve(in.view(), a.mutableView(), fifteen);
  referenceConvolve(in.view(), b.mutableView(), fifteen.trimmedToSupport());
  EXPECT_EQ(maxAbsDiff(a.view(), b.view()), 0);
}

TEST(AutoKey, BorderDivisorOffsetAndZeroPaddingDoNotChangeTheStructure) {
  auto ctx = sharedContext();
  const FilterSet f = randomFilter(7, BorderMode::Reflect101, 8);
  const std::string key = autoChoiceKey(*ctx, f, 640, 480);
  EXPECT_EQ(autoChoiceKey(*ctx, f.withBorder(BorderMode::Wrap), 640, 480), key);
  EXPECT_EQ(autoChoiceKey(*ctx, f.resizedTo(15), 640, 480), key);
  auto channels = f.channels();
  for (auto& c : channels) {
    c.divisor = 7;
    c.offset = 12;
  }
  EXPECT_EQ(autoChoiceKey(*ctx, FilterSet::make(channels), 640, 480), key);
  // What can change the ranking does change the key: K, rank, zero pattern, the measured size.
  EXPECT_NE(autoChoiceKey(*ctx, randomFilter(9, BorderMode::Reflect101, 8), 640, 480), key);
  EXPECT_NE(autoChoiceKey(*ctx, rankFilter(7, {1, 1, 1}, BorderMode::Reflect101, 8), 640, 480), key);
  EXPECT_NE(autoChoiceKey(*ctx, f, 320, 240), key);
  // Frames larger than the measured crop share one key.
  EXPECT_EQ(autoChoiceKey(*ctx, f, 1920, 1080), autoChoiceKey(*ctx, f, 3840, 2160));
}

// A measurement that has not run yet (here: a quiet period longer than the test) never holds a frame back:
// the new filter runs at once on the provisional strategy, exact, and says so.
TEST(AutoProvisional, ANewStructureRunsAtOnceWhileTheMeasurementWaits) {
  CoreConfig slow = coreConfig();
  slow.autoMeasure = CoreConfig::AutoMeasure::Background;
  slow.autoQuietMs = 600000;  // stands for a measurement that takes minutes
  ConfigScope scope(slow);
  auto ctx = contextWithoutStoredChoices();
  Engine engine(ctx, "auto");
  const int w = 97, h = 61;
  const Image in = randomImage(w, h, 9);
  for (int k : {3, 9, 15}) {
    const FilterSet f = randomFilter(k, BorderMode::Reflect, 20 + static_cast<std::uint32_t>(k));
    AutoChoiceCache::instance().forget(autoChoiceKey(*ctx, f, w, h));  // whatever another test stored
    engine.setFilter(f);
    Image out(w, h), ref(w, h);
    const auto start = std::chrono::steady_clock::now();
    const FrameTimings t = engine.process(in.view(), out.mutableView());
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(t.strategy.name, "dynamic") << t.strategy.describe();
    EXPECT_TRUE(t.strategy.viaAuto);
    EXPECT_NE(t.strategy.note.find("provisional"), std::string::npos) << t.strategy.describe();
    EXPECT_LT(ms, 5000) << "K=" << k;  // a frame, not a measurement (PoCL builds dynamic once: < 1 s here)
    referenceConvolve(in.view(), ref.mutableView(), f);
    EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance) << "K=" << k;
  }
}

// Once the measurement ends, its winner replaces the provisional strategy between frames, and the choice is
// stored: a border edit, a divisor edit and zero padding afterwards measure nothing.
TEST(AutoProvisional, TheWinnerSwapsInAndEditsThatCannotChangeTheRankingDoNotMeasure) {
  CoreConfig fast = coreConfig();
  fast.autoMeasure = CoreConfig::AutoMeasure::Background;
  fast.autoQuietMs = 0;
  fast.autoRuns = 1;
  ConfigScope scope(fast);
  auto ctx = contextWithoutStoredChoices();
  Engine engine(ctx, "auto");
  const int w = 40, h = 24;
  const FilterSet f = randomFilter(5, BorderMode::Reflect101, 31);
  AutoChoiceCache::instance().forget(autoChoiceKey(*ctx, f, w, h));
  engine.setFilter(f);
  const Image in = randomImage(w, h, 32);
  Image out(w, h);
  FrameTimings t = engine.process(in.view(), out.mutableView());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  while (!t.strategy.note.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    t = engine.process(in.view(), out.mutableView());
  }
  ASSERT_TRUE(t.strategy.note.empty()) << "still " << t.strategy.describe();
  const auto stored = AutoChoiceCache::instance().find(ctx->programCache(), autoChoiceKey(*ctx, f, w, h));
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(t.strategy.name, stored->strategy);

  auto channels = f.channels();
  for (auto& c : channels) c.divisor = 3;
  for (const FilterSet& edit : {f.withBorder(BorderMode::Wrap), FilterSet::make(channels), f.resizedTo(9)}) {
    engine.setFilter(edit);
    Image o(w, h), ref(w, h);
    const FrameTimings e = engine.process(in.view(), o.mutableView());
    EXPECT_EQ(e.strategy.note.find("measuring"), std::string::npos) << e.strategy.describe();
    referenceConvolve(in.view(), ref.mutableView(), edit);
    EXPECT_LE(maxAbsDiff(o.view(), ref.view()), kTolerance);
  }
}

}  // namespace
}  // namespace convolab::test
