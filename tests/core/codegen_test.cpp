// SPDX-License-Identifier: MIT
// codegen: generated source (zero taps skipped, shared-weight and separable paths) and background builds.
#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <thread>

#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab {
// Hooks defined in core/src/strategies/codegen.cpp (no public header on purpose).
void setCodegenBuildDelayForTesting(int milliseconds);
std::string generateCodegenSource(const FilterSet& filter, bool gpuStyle);
void resetLiteralProgramCountForTesting();  // core/src/literal_baker.cpp
}  // namespace convolab

namespace convolab::test {
namespace {

/// A K×K filter whose only non-zero taps are at `positions` (same weights in all channels unless
/// `perChannel`).
FilterSet sparseFilter(int k, const std::vector<int>& positions, bool perChannel, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(0.1, 1.0);
  std::array<ChannelFilter, 3> ch;
  for (int c = 0; c < 3; ++c) {
    auto& f = ch[static_cast<size_t>(c)];
    f.size = k;
    f.matrix.assign(static_cast<size_t>(k * k), 0.0);
    for (int p : positions) f.matrix[static_cast<size_t>(p)] = d(rng) * (p % 2 ? -1 : 1);
    f.divisor = 2.0;
    f.offset = 100;
    if (!perChannel && c > 0) f = ch[0];
  }
  return FilterSet::make(ch, BorderMode::Reflect101, {0, 0, 0}, "sparse");
}

TEST(Codegen, GeneratedSourceSkipsZeroTaps) {
  const std::vector<int> ten = {0, 3, 8, 12, 17, 24, 30, 33, 41, 47};  // 10 of 49, not rank 1
  std::vector<int> all(49);
  for (int i = 0; i < 49; ++i) all[static_cast<size_t>(i)] = i;
  for (bool gpu : {true, false}) {
    SCOPED_TRACE(gpu ? "GPU-style" : "CPU-style");
    const std::string sparse = generateCodegenSource(sparseFilter(7, ten, false, 1), gpu);
    const std::string dense = generateCodegenSource(sparseFilter(7, all, false, 2), gpu);
    EXPECT_NE(sparse.find("dense, 10 of 49 taps"), std::string::npos) << sparse.substr(0, 200);
    EXPECT_NE(dense.find("dense, 49 of 49 taps"), std::string::npos) << dense.substr(0, 200);
    // Every multiply-add is one (tap, output row, chunk): the counts scale exactly with the non-zero taps.
    const int fmaSparse = occurrences(sparse, "fma("), fmaDense = occurrences(dense, "fma(");
    ASSERT_GT(fmaSparse, 0);
    EXPECT_EQ(fmaSparse * 49, fmaDense * 10);
    // No literal zero is ever multiplied.
    EXPECT_EQ(occurrences(sparse, "(VEC)(0.0f)"), 0);
  }
}

TEST(Codegen, IdenticalChannelsTakeTheSharedPath) {
  const std::vector<int> taps = {1, 5, 9, 13, 20, 26, 31, 40, 44};
  const std::regex patternLiteral(R"(\(VEC\)\([^()]*,)");  // a vector literal with several lanes
  for (bool gpu : {true, false}) {
    const std::string shared = generateCodegenSource(sparseFilter(7, taps, false, 3), gpu);
    const std::string perChannel = generateCodegenSource(sparseFilter(7, taps, true, 4), gpu);
    EXPECT_NE(shared.find("shared weights"), std::string::npos);
    EXPECT_FALSE(std::regex_search(shared, patternLiteral))
        << "shared weights must be splat (scalar) literals";
    EXPECT_NE(perChannel.find("per-channel weights"), std::string::npos);
    EXPECT_TRUE(std::regex_search(perChannel, patternLiteral));
  }
  // And both compute the right thing on the device.
  auto ctx = sharedContext();
  Engine engine(ctx, "codegen");
  const Image in = randomImage(45, 31, 11);
  for (bool perChannel : {false, true}) {
    const FilterSet f = sparseFilter(7, taps, perChannel, 5);
    engine.setFilter(f);
    EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, f).view()), kTolerance);
  }
}

TEST(Codegen, RankOneFilterIsOneFusedPass) {
  // Gaussian-like outer product: rank 1, K = 9, plus a per-channel variant.
  const double g[9] = {1, 8, 28, 56, 70, 56, 28, 8, 1};
  ChannelFilter f;
  f.size = 9;
  f.matrix.resize(81);
  for (int j = 0; j < 9; ++j)
    for (int i = 0; i < 9; ++i) f.matrix[static_cast<size_t>(j * 9 + i)] = g[j] * g[i];
  f.divisor = 65536;
  ChannelFilter edge = f;  // another rank-1 filter for the green channel: a derivative across
  for (int j = 0; j < 9; ++j)
    for (int i = 0; i < 9; ++i) edge.matrix[static_cast<size_t>(j * 9 + i)] = g[j] * (i - 4);
  edge.divisor = 1024;
  edge.offset = 128;
  auto ctx = sharedContext();
  Engine engine(ctx, "codegen");
  const Image in = randomImage(150, 70, 12);
  for (const FilterSet& filter :
       {FilterSet::uniform(f, BorderMode::Reflect), FilterSet::make({f, edge, f}, BorderMode::Wrap)}) {
    for (bool gpu : {true, false})
      EXPECT_NE(generateCodegenSource(filter, gpu).find("separable"), std::string::npos);
    engine.setFilter(filter);
    Image out(in.width, in.height);
    const FrameTimings t = engine.process(in.view(), out.mutableView());
    EXPECT_EQ(t.stages.size(), 3u) << "upload, one kernel, download";
    EXPECT_LE(maxAbsDiff(out.view(), referenceOf(in, filter).view()), kTolerance)
        << firstMismatch(out.view(), referenceOf(in, filter).view(), kTolerance);
  }
}

class CodegenBackground : public ::testing::Test {
 protected:
  void SetUp() override {
    resetLiteralProgramCountForTesting();  // under the session's literal-program limit
    CoreConfig async = m_saved;
    async.codegenAsync = true;  // what CONVOLAB_CODEGEN_ASYNC=1 sets
    setCoreConfig(async);
    setCodegenBuildDelayForTesting(400);  // a build is never done before the next frame
  }
  void TearDown() override {
    setCoreConfig(m_saved);
    setCodegenBuildDelayForTesting(0);
  }
  const CoreConfig m_saved = coreConfig();
};

TEST_F(CodegenBackground, KeepsTheOldKernelUntilTheNewOneIsBuilt) {
  auto ctx = sharedContext();
  Engine engine(ctx, "codegen");
  const Image in = randomImage(64, 48, 21);
  // Seeds from the clock so the programs are new to the on-disk cache too (the delay covers it anyway).
  const auto seed = static_cast<std::uint32_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  const FilterSet first = randomFilter(5, BorderMode::Reflect101, seed);
  const FilterSet second = randomFilter(5, BorderMode::Reflect101, seed + 1);
  const Image refFirst = referenceOf(in, first), refSecond = referenceOf(in, second);
  ASSERT_GT(maxAbsDiff(refFirst.view(), refSecond.view()), 10) << "the two filters must be told apart";

  engine.setFilter(first);  // no kernel yet: built synchronously
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), refFirst.view()), kTolerance);

  engine.setFilter(second);  // same K and border: built in the background
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), refFirst.view()), kTolerance)
      << "a frame with the old kernel";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  int frames = 1;
  bool switched = false;
  while (!switched && std::chrono::steady_clock::now() < deadline) {
    const Image out = convolve(engine, in);
    ++frames;
    switched = maxAbsDiff(out.view(), refSecond.view()) <= kTolerance;
    if (!switched) {
      ASSERT_LE(maxAbsDiff(out.view(), refFirst.view()), kTolerance) << "old or new, nothing else";
      // Frames as a camera sends them, not back to back: a busy loop takes CPU from the build it waits for
      // (under ASan this test took 10.6 s of CPU with it, 7.6 s without).
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  EXPECT_TRUE(switched) << "still the old kernel after " << frames << " frames";

  engine.setFilter(first);  // built before: back at once
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), refFirst.view()), kTolerance);

  const FilterSet other = randomFilter(3, BorderMode::Reflect101, seed + 2);  // K changes: synchronous
  engine.setFilter(other);
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, other).view()), kTolerance);
  const FilterSet wrap = other.withBorder(BorderMode::Wrap);  // border changes: synchronous
  engine.setFilter(wrap);
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, wrap).view()), kTolerance);
}

TEST(Codegen, SynchronousByDefault) {
  auto ctx = sharedContext();
  Engine engine(ctx, "codegen");
  const Image in = randomImage(40, 30, 22);
  for (std::uint32_t seed : {31u, 32u}) {
    const FilterSet f = randomFilter(5, BorderMode::Replicate, seed);
    engine.setFilter(f);
    EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, f).view()), kTolerance);
  }
}

}  // namespace
}  // namespace convolab::test
