// SPDX-License-Identifier: MIT
// StrategyId: the text form of what runs ("[auto:]name[/variant]") both ways, and the typed identity the
// engine, its timings and FrameStream carry for auto's choice (name + variant, no string parsing).
#include <gtest/gtest.h>

#include "convolab/auto_choices.hpp"
#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/frame_stream.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

TEST(StrategyId, TextFormRoundTrips) {
  const std::pair<const char*, StrategyId> cases[] = {
      {"naive", StrategyId("naive")},
      {"tiled/b4x2-wg16x8", StrategyId("tiled", "b4x2-wg16x8")},
      {"auto:tiled/b4x2-wg16x8-f1-s1-c0", StrategyId("tiled", "b4x2-wg16x8-f1-s1-c0", true)},
      {"auto:naive", StrategyId("naive", "", true)},
      {"auto", StrategyId("auto")},
  };
  for (const auto& [text, id] : cases) {
    EXPECT_EQ(StrategyId::parse(text), id) << text;
    EXPECT_EQ(id.toString(), text);
  }
  EXPECT_EQ(StrategyId{}.toString(), "");
}

TEST(StrategyId, AutoBeforeAndAfterItChose) {
  EXPECT_TRUE(StrategyId{std::string(kAutoStrategy)}.isAuto());
  EXPECT_TRUE(StrategyId::parse("auto:local/16x8").isAuto());
  EXPECT_FALSE(StrategyId{"local"}.isAuto());
  EXPECT_TRUE(findStrategy(kAutoStrategy));
}

// auto's choice (a strategy and a non-default variant) reaches the engine's activeStrategyId, the frame's
// timings and, as a typed id, a FrameStream that runs that variant.
TEST(StrategyId, AutoChoiceTravelsTyped) {
  const CoreConfig saved = coreConfig();
  CoreConfig noCache = saved;
  noCache.noProgramCache = true;  // the choice below lives in memory only: nothing is written to disk
  setCoreConfig(noCache);
  auto ctx = std::make_shared<Context>("");
  setCoreConfig(saved);
  ASSERT_FALSE(ctx->programCache().enabled());

  const int w = 29, h = 7;
  const FilterSet f = randomFilter(3, BorderMode::Reflect101, 41);
  const auto variants = createStrategy("local")->tuningVariants(*ctx, f);
  const std::string variant = variants.size() > 1 ? variants[1] : variants.front();
  AutoChoiceCache::instance().store(ctx->programCache(), autoChoiceKey(*ctx, f, w, h),
                                    {"local", variant, 0.01});

  Engine engine(ctx, std::string(kAutoStrategy));
  engine.setFilter(f);
  const Image in = randomImage(w, h, 42);
  Image out(w, h), ref(w, h);
  const FrameTimings t = engine.process(in.view(), out.mutableView());
  const StrategyId expected{"local", variant, true};
  EXPECT_EQ(engine.activeStrategyId(), expected) << engine.activeStrategy();
  EXPECT_EQ(t.strategy, expected);
  EXPECT_EQ(engine.activeStrategy(), "auto:local" + (variant.empty() ? "" : "/" + variant));
  referenceConvolve(in.view(), ref.mutableView(), f);
  EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance);

  FrameStream stream(ctx, engine.activeStrategyId(), f, w, h, 2);
  const MutableImageView dst = stream.nextInput();
  for (int y = 0; y < h; ++y) std::copy_n(in.view().row(y), w * 3, dst.row(y));
  EXPECT_LE(maxAbsDiff(stream.wait(stream.submit()), ref.view()), kTolerance);
}

}  // namespace
}  // namespace convolab::test
