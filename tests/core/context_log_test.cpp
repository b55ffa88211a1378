// SPDX-License-Identifier: MIT
// Context's build and launch log (what the app's kernel source view shows): exact source and options, cache
// use, and the NDRange of every launch.
#include <gtest/gtest.h>

#include <thread>

#include "convolab/context.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab {
namespace {

TEST(ContextLog, RecordsBuildsWithSourceOptionsAndCacheUse) {
  Context ctx;
  ctx.clearActivityLog();
  const std::string source = "__kernel void k(__global int* x) { x[get_global_id(0)] = LOG_TEST_VALUE; }\n";
  ctx.buildProgram(source, "-DLOG_TEST_VALUE=4242", "log_test");
  ASSERT_EQ(ctx.buildLog().size(), 1u);
  const BuildInfo first = ctx.buildLog().front();
  EXPECT_EQ(first.label, "log_test");
  EXPECT_EQ(first.source, source);
  EXPECT_NE(first.options.find("-DLOG_TEST_VALUE=4242"), std::string::npos);
  EXPECT_GE(first.buildMs, 0.0);
  // The same program again: the binary comes from the program cache when the cache is on.
  ctx.buildProgram(source, "-DLOG_TEST_VALUE=4242", "log_test");
  ASSERT_EQ(ctx.buildLog().size(), 2u);
  EXPECT_EQ(ctx.buildLog().back().fromCache, ctx.programCache().enabled());
  ctx.clearActivityLog();
  EXPECT_TRUE(ctx.buildLog().empty());
}

TEST(ContextLog, RecordsEveryLaunchOfAStrategy) {
  auto ctx = test::sharedContext();
  const FilterSet filter = test::randomFilter(5, BorderMode::Reflect101, 3);
  auto naive = createStrategy("naive");
  naive->prepare(*ctx, filter, 37, 21);
  ctx->clearActivityLog();
  const size_t bytes = 37 * 21 * 3;
  cl::Buffer in(ctx->context(), CL_MEM_READ_WRITE, bytes), out(ctx->context(), CL_MEM_READ_WRITE, bytes);
  const auto events = naive->enqueue(*ctx, FrameBuffers{in, out, 37, 21}, {});
  ctx->queue().finish();
  ASSERT_EQ(ctx->launchLog().size(), events.size());
  const LaunchInfo launch = ctx->launchLog().front();
  EXPECT_EQ(launch.kernel, events.front().name);
  ASSERT_EQ(launch.global.size(), 2u);
  ASSERT_EQ(launch.local.size(), 2u);
  EXPECT_GE(launch.global[0], 37u);
  EXPECT_GE(launch.global[1], 21u);
  EXPECT_EQ(launch.global[0] % launch.local[0], 0u);
}

TEST(ContextLog, IsBounded) {
  auto ctx = test::sharedContext();
  ctx->clearActivityLog();
  for (size_t i = 0; i < Context::kActivityLogSize + 5; ++i)
    ctx->recordLaunch("k" + std::to_string(i), cl::NDRange(8), cl::NDRange(4));
  EXPECT_EQ(ctx->launchLog().size(), Context::kActivityLogSize);
  EXPECT_EQ(ctx->launchLog().back().kernel, "k" + std::to_string(Context::kActivityLogSize + 4));
  ctx->clearActivityLog();
}

TEST(ContextLog, BuildsFromTwoThreadsAndAReaderAreSafe) {
  // A LiteralBaker builds in the background on the same context while the caller's thread builds and
  // enqueues: the log is written from both (the sanitizer pass caught a use-after-free here).
  Context ctx;
  const std::string source = "__kernel void k(__global int* x) { x[get_global_id(0)] = 7; }\n";
  ctx.buildProgram(source, "", "race_test");
  auto builds = [&] {
    for (int i = 0; i < 20000; ++i) ctx.buildProgram(source, "", "race_test");  // pool hits: only the log
  };
  std::thread a(builds), b(builds);
  std::size_t seen = 0;
  for (int i = 0; i < 20000; ++i) seen = std::max(seen, ctx.buildLog().size());
  a.join();
  b.join();
  EXPECT_EQ(ctx.buildLog().size(), Context::kActivityLogSize);
  EXPECT_LE(seen, Context::kActivityLogSize);
}

}  // namespace
}  // namespace convolab
