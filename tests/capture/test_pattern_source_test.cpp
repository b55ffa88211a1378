// SPDX-License-Identifier: MIT
// The test pattern: its spec grammar, its frames, and its simulated unplug and recovery.
#include "capture/test_pattern_source.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace convolab::capture {
namespace {

TEST(TestPatternSpec, ParsesSizeRateAndFailureOptions) {
  const auto o = TestPatternOptions::parse("pattern:640x360@60,fail=5,recover=2");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->width, 640);
  EXPECT_EQ(o->height, 360);
  EXPECT_EQ(o->fps, 60);
  EXPECT_EQ(o->failAfter, 5);
  EXPECT_EQ(o->recoverAfter, 2);
  const auto plain = TestPatternOptions::parse("pattern");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->width, 1280);
  EXPECT_EQ(plain->failAfter, -1);
}

TEST(TestPatternSpec, TellsPatternsFromFilesThatStartLikeOne) {
  for (const char* spec : {"pattern", "pattern:32x32", "pattern@30", "pattern,fail=1", "pattern:10x"})
    EXPECT_TRUE(TestPatternOptions::isPatternSpec(spec)) << spec;
  for (const char* spec : {"patterns.png", "pattern.mp4", "my-pattern", ""}) {
    EXPECT_FALSE(TestPatternOptions::isPatternSpec(spec)) << spec;
    EXPECT_FALSE(TestPatternOptions::parse(spec)) << spec;
  }
}

TEST(TestPatternSpec, RefusesMalformedOnes) {
  for (const char* spec : {"pattern:10x", "pattern:8x8", "pattern@0", "pattern,wobble=1", "pattern:99999x16"})
    EXPECT_THROW(TestPatternOptions::parse(spec), SourceError) << spec;
}

TEST(TestPatternSource, DeliversAnimatedRgbFramesOfItsSize) {
  TestPatternSource source({.width = 64, .height = 48, .fps = 25});
  source.open();
  EXPECT_EQ(source.nominalFps(), 25);
  EXPECT_NE(source.deliveredMode().find("64×48"), std::string::npos);
  Frame first, second;
  ASSERT_TRUE(source.read(first));
  ASSERT_TRUE(source.read(second));
  ASSERT_TRUE(first.image && second.image);
  EXPECT_EQ(first.image->width, 64);
  EXPECT_EQ(first.image->height, 48);
  EXPECT_EQ(second.index, first.index + 1);
  EXPECT_GE(second.captured, first.captured);
  EXPECT_NE(first.image->pixels, second.image->pixels);  // it moves
  const auto& px = first.image->pixels;
  EXPECT_TRUE(std::any_of(px.begin(), px.end(), [&](auto v) { return v != px.front(); }));
}

TEST(TestPatternSource, SimulatedUnplugFailsReadsThenRecovers) {
  TestPatternSource source({.width = 16, .height = 16, .fps = 30, .failAfter = 2, .recoverAfter = 1});
  source.open();
  Frame frame;
  EXPECT_TRUE(source.read(frame));
  EXPECT_TRUE(source.read(frame));
  EXPECT_FALSE(source.read(frame));  // unplugged
  source.close();
  EXPECT_THROW(source.open(), SourceError);  // still away once
  source.open();                             // back
  EXPECT_TRUE(source.read(frame));
}

}  // namespace
}  // namespace convolab::capture
