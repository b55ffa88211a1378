// SPDX-License-Identifier: MIT
// literal_baker: live coefficient edits under codegen and sliding run the generic kernel and
// bake the literals once edits pause, so N distinct edits do not build N programs; K or border changes build
// at once.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <thread>

#include "convolab/beside_live_frames.hpp"
#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/log.hpp"
#include "first_launch_in_child.hpp"
#include "literal_baker.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

// Every strategy that bakes literals (LiteralBaker).
class LiteralEditing : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    resetLiteralProgramCountForTesting();
    m_saved = coreConfig();
    CoreConfig c = m_saved;
    c.measureProgram = CONVOLAB_MEASURE_PROGRAM_PATH;  // where a bake's first launch is made
    setCoreConfig(c);
  }
  void TearDown() override {
    setLiteralBakeQuietPeriodForTesting(-1);
    setCoreConfig(m_saved);
  }
  CoreConfig m_saved;
};

// Every program costs driver memory that PoCL 3.1 never returns (+0.5 MB each), so typing must not build one
// per keystroke: while edits keep coming the generic kernel runs with the weights as an argument (output
// still exact); the literals are baked once, when edits pause.
TEST_P(LiteralEditing, DistinctEditsBuildOneProgramPerPauseNotOnePerEdit) {
  const std::string name = GetParam();
  auto ctx = std::make_shared<Context>(sharedContext()->device());  // its own count of programs
  Engine engine(ctx, name);
  const Image in = randomImage(40, 24, 41);
  // Seeds from the clock: the programs are new to the on-disk cache, as a user's edits are.
  const auto seed = static_cast<std::uint32_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  const FilterSet first = randomFilter(5, BorderMode::Reflect101, seed);
  engine.setFilter(first);
  ASSERT_EQ(engine.activeStrategy(), name);
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, first).view()), kTolerance);
  const std::size_t before = ctx->programsCreated();

  setLiteralBakeQuietPeriodForTesting(600'000);  // the user keeps typing
  constexpr int kEdits = 12;
  FilterSet last = first;
  for (int i = 1; i <= kEdits; ++i) {
    last = randomFilter(5, BorderMode::Reflect101, seed + static_cast<std::uint32_t>(i));
    engine.setFilter(last);
    EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, last).view()), kTolerance)
        << "edit " << i;
    EXPECT_EQ(engine.activeStrategy(), name);
  }
  EXPECT_LE(ctx->programsCreated() - before, 1u) << kEdits << " edits: only the generic kernel may be built";

  engine.setFilter(first);  // back to the filter that was baked: its kernel is kept, nothing is built
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, first).view()), kTolerance);
  engine.setFilter(last);
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, last).view()), kTolerance);
  EXPECT_LE(ctx->programsCreated() - before, 1u);

  const int launchedInChild = childFirstLaunchesForTesting();
  setLiteralBakeQuietPeriodForTesting(0);  // the user stops: the last filter's literals are baked, once
  const Image ref = referenceOf(in, last);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  // Baked: built, and (where first launches go to a child) launched there first.
  const auto baked = [&] {
    return ctx->programsCreated() - before >= 2 &&
           (!firstLaunchesGoToChild(*ctx) || childFirstLaunchesForTesting() > launchedInChild);
  };
  while (!baked() && std::chrono::steady_clock::now() < deadline) {
    EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), ref.view()), kTolerance);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // frames, not a busy loop beside the build
  }
  for (int i = 0; i < 5; ++i) EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), ref.view()), kTolerance);
  EXPECT_EQ(ctx->programsCreated() - before, 2u) << "the generic kernel and one baked program";
  // Beside live frames, the baked kernel's first launch (PoCL compiles its work-group function then, stalling
  // every queue) was made in convolab-measure first (first_launch_in_child.hpp).
  if (firstLaunchesGoToChild(*ctx))
    EXPECT_EQ(childFirstLaunchesForTesting() - launchedInChild, 1) << "the bake's first launch in the child";

  // K or border changes never run the old structure's kernel: built at once, exact on the first frame.
  const FilterSet other = randomFilter(3, BorderMode::Reflect101, seed + 100);
  engine.setFilter(other);
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, other).view()), kTolerance);
  const FilterSet wrap = other.withBorder(BorderMode::Wrap);
  engine.setFilter(wrap);
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, wrap).view()), kTolerance);
}

// The app's preparations run beside the live preview (BesideLiveFrames): a new literal kernel's first launch
// is made in convolab-measure; the CLI's (no mark) makes it here.
TEST_P(LiteralEditing, APreparationBesideLiveFramesLaunchesFirstInTheChild) {
  auto ctx = std::make_shared<Context>(sharedContext()->device());
  if (!firstLaunchesGoToChild(*ctx)) GTEST_SKIP() << "the device compiles nothing at a first launch";
  const auto seed = static_cast<std::uint32_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  const Image in = randomImage(40, 24, 43);
  for (bool beside : {false, true}) {
    const int before = childFirstLaunchesForTesting();
    std::optional<BesideLiveFrames> mark;
    if (beside) mark.emplace();
    Engine engine(ctx, GetParam());
    const FilterSet f = randomFilter(5, BorderMode::Reflect101, seed + (beside ? 1 : 0));
    engine.setFilter(f);
    EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, f).view()), kTolerance);
    EXPECT_EQ(childFirstLaunchesForTesting() - before, beside ? 1 : 0) << (beside ? "beside" : "alone");
  }
}

INSTANTIATE_TEST_SUITE_P(Literal, LiteralEditing, ::testing::Values("codegen", "sliding"),
                         [](const auto& info) { return std::string(info.param); });

// Long runs: the literal programs held are a cache of CONVOLAB_LITERAL_PROGRAMS, the least recently used
// evicted; a new filter still gets its literal kernel (issue 35: auto's measurements used up a session limit
// of 64 in five minutes, and every later filter ran the generic kernel for good).
class LiteralCache : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    m_saved = coreConfig();
    CoreConfig c = m_saved;
    c.literalPrograms = 1;
    setCoreConfig(c);
    resetLiteralProgramCountForTesting();
    setLiteralBakeQuietPeriodForTesting(0);  // every edit is followed by a pause
  }
  void TearDown() override {
    setCoreConfig(m_saved);
    resetLiteralProgramCountForTesting();
    setLiteralBakeQuietPeriodForTesting(-1);
    setLogSink(nullptr);
  }
  CoreConfig m_saved;
};

TEST_P(LiteralCache, EvictsInsteadOfFallingBack) {
  std::vector<std::string> notes;
  setLogSink([&](LogLevel level, std::string_view m) {
    if (level == LogLevel::Note) notes.emplace_back(m);
  });
  auto ctx = std::make_shared<Context>(sharedContext()->device());
  Engine engine(ctx, GetParam());
  const Image in = randomImage(40, 24, 42);
  const auto seed = static_cast<std::uint32_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  const int sizes[] = {3, 5, 7};
  constexpr int kFilters = 3;  // K changes (built at once) and coefficient edits (baked after the pause)
  for (int i = 0; i < kFilters; ++i) {
    const FilterSet f =
        randomFilter(sizes[(i / 2) % 3], BorderMode::Reflect101, seed + static_cast<std::uint32_t>(i));
    engine.setFilter(f);
    const Image ref = referenceOf(in, f);
    FrameTimings t;
    for (int frame = 0; frame < 4; ++frame) {  // frames in the pause: a bake may start and land
      const Image out = convolve(engine, in);
      ASSERT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance) << "filter " << i;
    }
    // Past the pause the filter's own literal kernel runs, however many were built before (a bake makes its
    // first launch in convolab-measure first on PoCL: seconds on a loaded machine).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!(t = engine.process(in.view(), Image(40, 24).mutableView())).strategy.note.empty() &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_EQ(t.strategy.describe(), GetParam()) << "filter " << i << " fell back";
    ASSERT_LE(literalProgramsHeld(), 1 + 1) << "the cache evicts (1, plus the running kernel)";
  }
  EXPECT_GE(literalProgramsBuilt(), kFilters - 1) << kFilters << " distinct filters, each baked";
  EXPECT_TRUE(notes.empty()) << "no limit to note";
}

INSTANTIATE_TEST_SUITE_P(Literal, LiteralCache, ::testing::Values("sliding", "codegen"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace convolab::test
