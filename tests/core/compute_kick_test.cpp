// SPDX-License-Identifier: MIT
// ComputeKick: the little OpenCL work that bench --latency and the app put on the engine's context after each
// frame OpenGL displayed (the GL -> CL switch off the next frame's path). Its kernel runs on the context it
// was given, once per kick; a copy kick runs no kernel; an inert kick (no context) enqueues nothing.
#include <gtest/gtest.h>

#include "convolab/compute_kick.hpp"
#include "convolab/context.hpp"
#include "test_support.hpp"

namespace convolab {
namespace {

TEST(ComputeKick, NamesParseBack) {
  using Work = ComputeKick::Work;
  for (Work w : {Work::None, Work::Kernel, Work::Copy, Work::All})
    EXPECT_EQ(ComputeKick::parseWork(ComputeKick::workName(w)), w) << ComputeKick::workName(w);
  EXPECT_EQ(ComputeKick::parseWork("none"), Work::None);
  EXPECT_EQ(ComputeKick::parseWork("off"), Work::None);
  EXPECT_FALSE(ComputeKick::parseWork("sometimes"));
}

TEST(ComputeKick, RunsItsKernelOnTheGivenContextOncePerKick) {
  // A context of its own, dropped after the kick is made: the kick keeps it (retained) and runs on it.
  auto ctx = std::make_shared<Context>(test::sharedContext()->device());
  ComputeKick kick(*ctx);
  ctx.reset();
  ASSERT_TRUE(kick.ok()) << kick.error();
  EXPECT_EQ(kick.work(), ComputeKick::Work::Kernel) << "the default";
  EXPECT_EQ(kick.kernelsRun(), 0u);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(kick.kick());
  EXPECT_EQ(kick.kicks(), 3u);
  EXPECT_EQ(kick.kernelsRun(), 3u) << "each kick ran the kernel";
  kick.setWork(ComputeKick::Work::Copy);
  EXPECT_TRUE(kick.kick());
  EXPECT_EQ(kick.kicks(), 4u);
  EXPECT_EQ(kick.kernelsRun(), 3u) << "a copy kick runs no kernel";
  kick.setWork(ComputeKick::Work::All);
  EXPECT_TRUE(kick.kick());
  EXPECT_EQ(kick.kernelsRun(), 4u);
  kick.setWork(ComputeKick::Work::None);
  EXPECT_FALSE(kick.kick());
  EXPECT_EQ(kick.kicks(), 5u);
  EXPECT_EQ(kick.kernelsRun(), 4u);
}

// The raw handles (what bench --latency holds) work as the Context does.
TEST(ComputeKick, TakesRawHandles) {
  const auto ctx = test::sharedContext();
  ComputeKick kick(ctx->context()(), ctx->clDevice()());
  ASSERT_TRUE(kick.ok()) << kick.error();
  EXPECT_TRUE(kick.kick());
  EXPECT_EQ(kick.kernelsRun(), 1u);
}

TEST(ComputeKick, WithoutAContextItIsInert) {
  ComputeKick kick(nullptr, nullptr);
  EXPECT_FALSE(kick.ok());
  EXPECT_NE(kick.error().find("no OpenCL context"), std::string::npos) << kick.error();
  EXPECT_FALSE(kick.kick());
  EXPECT_EQ(kick.kicks(), 0u);
  EXPECT_EQ(kick.kernelsRun(), 0u);
}

}  // namespace
}  // namespace convolab
