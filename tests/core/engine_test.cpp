// SPDX-License-Identifier: MIT
// Engine behaviour beyond correctness: fallback with a notice, filter changes, staging, FrameStream, cache
// keys.
#include <gtest/gtest.h>

#include <fstream>

#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/error.hpp"
#include "convolab/frame_stream.hpp"
#include "convolab/program_cache.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

TEST(Engine, UnknownStrategyIsAUsageError) {
  try {
    Engine e(sharedContext(), "fastest");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("naive"), std::string::npos);
  }
}

TEST(Engine, FallsBackAndSaysSoWhenStrategyDeclines) {
  // separable declines a dense filter: the engine must still produce the right image, and say why.
  Engine engine(sharedContext(), "separable");
  const FilterSet f = randomFilter(5, BorderMode::Reflect101, 4);
  ASSERT_TRUE(createStrategy("separable")->unsupportedReason(*sharedContext(), f).has_value());
  engine.setFilter(f);
  const Image in = randomImage(40, 30, 1);
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, f).view()), kTolerance);
  EXPECT_NE(engine.activeStrategy(), "separable");
  const auto notices = engine.takeNotices();
  ASSERT_FALSE(notices.empty());
  EXPECT_NE(notices.front().find("separable"), std::string::npos);
  EXPECT_TRUE(engine.takeNotices().empty());  // reported once
}

TEST(Engine, FilterChangeTakesEffectOnNextFrame) {
  Engine engine(sharedContext(), "naive");
  Image in = randomImage(21, 17, 2), a(21, 17), b(21, 17), ref(21, 17);
  engine.setFilter(randomFilter(3, BorderMode::Wrap, 5));
  engine.process(in.view(), a.mutableView());
  const FilterSet second = randomFilter(3, BorderMode::Wrap, 6);
  engine.setFilter(second);
  engine.process(in.view(), b.mutableView());
  referenceConvolve(in.view(), ref.mutableView(), second);
  EXPECT_LE(maxAbsDiff(b.view(), ref.view()), kTolerance);
  EXPECT_GT(maxAbsDiff(a.view(), b.view()), kTolerance);
}

TEST(Engine, TimingsNameEveryStage) {
  Engine engine(sharedContext(), "naive");
  engine.setFilter(randomFilter(3, BorderMode::Reflect101, 7));
  Image in = randomImage(64, 48, 3), out(64, 48);
  const FrameTimings t = engine.process(in.view(), out.mutableView());
  ASSERT_GE(t.stages.size(), 3u);
  EXPECT_EQ(t.stages.front().name, "upload");
  EXPECT_EQ(t.stages[1].name, "convolve_naive");
  EXPECT_EQ(t.stages.back().name, "download");
  EXPECT_GT(t.hostMs, 0);
  EXPECT_EQ(t.strategy.toString(), "naive");
}

TEST(Engine, PinnedStagingGivesSameResult) {
  Engine engine(sharedContext(), "naive");
  const FilterSet f = randomFilter(5, BorderMode::Constant, 8);
  engine.setFilter(f);
  Image in = randomImage(50, 20, 4), ref(50, 20);
  MutableImageView sin = engine.stagingInput(50, 20), sout = engine.stagingOutput(50, 20);
  for (int y = 0; y < 20; ++y) std::copy(in.view().row(y), in.view().row(y) + 150, sin.row(y));
  engine.process(sin, sout);
  referenceConvolve(in.view(), ref.mutableView(), f);
  EXPECT_LE(maxAbsDiff(sout, ref.view()), kTolerance);
}

TEST(FrameStream, PipelinedFramesMatchReference) {
  const FilterSet f = randomFilter(7, BorderMode::Reflect101, 9);
  FrameStream stream(sharedContext(), "naive", f, 64, 40, 3);
  std::vector<Image> inputs;
  std::vector<int> slots;
  for (int i = 0; i < 3; ++i) {
    inputs.push_back(randomImage(64, 40, 100 + i));
    MutableImageView dst = stream.nextInput();
    std::copy(inputs.back().pixels.begin(), inputs.back().pixels.end(), dst.data);
    slots.push_back(stream.submit());
  }
  for (int i = 0; i < 3; ++i) {
    Image ref(64, 40);
    referenceConvolve(inputs[static_cast<size_t>(i)].view(), ref.mutableView(), f);
    EXPECT_LE(maxAbsDiff(stream.wait(slots[static_cast<size_t>(i)]), ref.view()), kTolerance)
        << "frame " << i;
  }
  EXPECT_GT(stream.measureThroughput(6), 0.0);
}

TEST(ProgramCache, KeyChangesWithEveryInput) {
  const std::string k = ProgramCache::key("dev", "drv", "-DX", "src");
  EXPECT_NE(k, ProgramCache::key("dev2", "drv", "-DX", "src"));
  EXPECT_NE(k, ProgramCache::key("dev", "drv2", "-DX", "src"));
  EXPECT_NE(k, ProgramCache::key("dev", "drv", "-DY", "src"));
  EXPECT_NE(k, ProgramCache::key("dev", "drv", "-DX", "src2"));
  EXPECT_NE(ProgramCache::key("ab", "c", "", ""), ProgramCache::key("a", "bc", "", ""));
  EXPECT_EQ(k, ProgramCache::key("dev", "drv", "-DX", "src"));
}

TEST(ProgramCache, CorruptBinaryIsRebuiltNotFatal) {
  const auto dir = std::filesystem::temp_directory_path() / ("convolab-cache-" + std::to_string(::getpid()));
  ::setenv("CONVOLAB_CACHE_DIR", dir.c_str(), 1);
  ::setenv("CONVOLAB_PROGRAM_BINARIES", "1", 1);  // stored on every driver, PoCL included
  setCoreConfig(CoreConfig::fromEnvironment());
  {
    Context ctx("");
    ctx.buildKernelProgram("naive", "-DBORDER_MODE=BORDER_WRAP");
    ASSERT_TRUE(ctx.programCache().enabled());
    int corrupted = 0;
    for (auto& e : std::filesystem::directory_iterator(ctx.programCache().dir())) {
      std::ofstream(e.path(), std::ios::binary | std::ios::trunc) << "garbage";
      ++corrupted;
    }
    ASSERT_GT(corrupted, 0);
    Context fresh("");  // the pool would hand back the program without reading the cache
    EXPECT_NO_THROW(fresh.buildKernelProgram("naive", "-DBORDER_MODE=BORDER_WRAP"));
  }
  ::unsetenv("CONVOLAB_PROGRAM_BINARIES");
  setCoreConfig(CoreConfig::fromEnvironment());
  std::filesystem::remove_all(dir);
}

TEST(Context, BuildFailureCarriesTheLog) {
  Context ctx("");
  try {
    ctx.buildProgram("__kernel void broken(__global int* p) { p[0] = undefined_thing; }", "", "broken-test");
    FAIL();
  } catch (const BuildError& e) {
    EXPECT_NE(std::string(e.what()).find("broken-test"), std::string::npos);
    EXPECT_NE(e.log().find("undefined_thing"), std::string::npos) << e.log();
  }
}

}  // namespace
}  // namespace convolab::test

namespace convolab::test {
namespace {

/// Sets CONVOLAB_INJECT_FAULT for one scope.
struct InjectFault {
  explicit InjectFault(const char* spec) { ::setenv("CONVOLAB_INJECT_FAULT", spec, 1); }
  ~InjectFault() { ::unsetenv("CONVOLAB_INJECT_FAULT"); }
};

TEST(EngineFaults, BuildFailureFallsBackAndSaysSo) {
  InjectFault fault("build:local");
  Engine engine(sharedContext(), "local");
  const FilterSet f = randomFilter(5, BorderMode::Reflect, 11);
  engine.setFilter(f);
  const Image in = randomImage(30, 20, 5);
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, f).view()), kTolerance);
  EXPECT_EQ(engine.activeStrategy(), "constant");
  const auto notices = engine.takeNotices();
  ASSERT_GE(notices.size(), 2u);
  EXPECT_NE(notices[0].find("injected build failure"), std::string::npos) << notices[0];
  EXPECT_NE(notices[1].find("using strategy 'constant' instead of 'local'"), std::string::npos) << notices[1];
}

TEST(EngineFaults, OutOfResourcesWhileRunningRetriesTheFrameElsewhere) {
  Engine engine(sharedContext(), "local");
  const FilterSet f = randomFilter(3, BorderMode::Replicate, 12);
  engine.setFilter(f);
  Image in = randomImage(30, 20, 6), out(30, 20), ref(30, 20);
  engine.process(in.view(), out.mutableView());
  ASSERT_EQ(engine.activeStrategy(), "local");
  InjectFault fault("run:local");
  std::fill(out.pixels.begin(), out.pixels.end(), 0);
  engine.process(in.view(), out.mutableView());  // the same frame, retried with a fallback
  referenceConvolve(in.view(), ref.mutableView(), f);
  EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance);
  EXPECT_NE(engine.activeStrategy(), "local");
  bool said = false;
  for (const auto& n : engine.takeNotices())
    said |= n.find("CL_OUT_OF_RESOURCES") != std::string::npos &&
            n.find("disabled for this session") != std::string::npos;
  EXPECT_TRUE(said);
  // Disabled for the session: a later frame does not go back to the failing strategy.
  engine.setFilter(randomFilter(3, BorderMode::Replicate, 13));
  engine.process(in.view(), out.mutableView());
  EXPECT_NE(engine.activeStrategy(), "local");
}

TEST(EngineFaults, NoStrategyLeftIsADeviceError) {
  InjectFault fault("build:naive,build:constant,build:tiled");
  Engine engine(sharedContext(), "tiled");
  engine.setFilter(randomFilter(3, BorderMode::Wrap, 14));
  Image in = randomImage(8, 8, 7), out(8, 8);
  try {
    engine.process(in.view(), out.mutableView());
    FAIL() << "no strategy should have run";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Device);
  }
}

TEST(EngineFaults, RawOpenClErrorInPrepareFallsBack) {
  // A strategy whose prepare() lets a cl::Error through (e.g. a work-group size the device refuses)
  // must not abort the frame: the engine falls back like for any other failure to prepare.
  InjectFault fault("prepare:local");
  Engine engine(sharedContext(), "local");
  const FilterSet f = randomFilter(3, BorderMode::Reflect, 15);
  engine.setFilter(f);
  Image in = randomImage(30, 20, 8), out(30, 20), ref(30, 20);
  ASSERT_NO_THROW(engine.process(in.view(), out.mutableView()));
  referenceConvolve(in.view(), ref.mutableView(), f);
  EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance);
  EXPECT_EQ(engine.activeStrategy(), "constant");
  const auto notices = engine.takeNotices();
  ASSERT_FALSE(notices.empty());
  EXPECT_NE(notices[0].find("CL_INVALID_WORK_GROUP_SIZE"), std::string::npos) << notices[0];
}

}  // namespace
}  // namespace convolab::test
