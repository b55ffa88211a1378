// literal_baker: live coefficient edits under sliding (issue 13.7a) run the generic kernel and bake the
// literals once edits pause, so N distinct edits do not build N programs; K or border changes build at once.
#include <gtest/gtest.h>

#include <chrono>

#include "convolab/engine.hpp"
#include "literal_baker.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

Image convolve(Engine& engine, const Image& in) {
  Image out(in.width, in.height);
  engine.process(in.view(), out.mutableView());
  return out;
}

class SlidingEditing : public ::testing::Test {
 protected:
  void TearDown() override { setLiteralBakeQuietPeriodForTesting(1000); }
};

// Every program costs driver memory that PoCL 3.1 never returns, so typing must not build one per keystroke.
TEST_F(SlidingEditing, DistinctEditsBuildOneProgramPerPauseNotOnePerEdit) {
  auto ctx = std::make_shared<Context>(sharedContext()->device());  // its own count of programs
  Engine engine(ctx, "sliding");
  const Image in = randomImage(40, 24, 41);
  // Seeds from the clock: the programs are new to the on-disk cache, as a user's edits are.
  const auto seed = static_cast<std::uint32_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  const FilterSet first = randomFilter(5, BorderMode::Reflect101, seed);
  engine.setFilter(first);
  ASSERT_EQ(engine.activeStrategy(), "sliding");
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
    EXPECT_EQ(engine.activeStrategy(), "sliding");
  }
  EXPECT_LE(ctx->programsCreated() - before, 1u) << kEdits << " edits: only the generic kernel may be built";

  engine.setFilter(first);  // back to the filter that was baked: its kernel is kept, nothing is built
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, first).view()), kTolerance);
  engine.setFilter(last);
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, last).view()), kTolerance);
  EXPECT_LE(ctx->programsCreated() - before, 1u);

  setLiteralBakeQuietPeriodForTesting(0);  // the user stops: the last filter's literals are baked, once
  const Image ref = referenceOf(in, last);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (ctx->programsCreated() - before < 2 && std::chrono::steady_clock::now() < deadline)
    EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), ref.view()), kTolerance);
  for (int i = 0; i < 5; ++i) EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), ref.view()), kTolerance);
  EXPECT_EQ(ctx->programsCreated() - before, 2u) << "the generic kernel and one baked program";

  // K or border changes never run the old structure's kernel: built at once, exact on the first frame.
  const FilterSet other = randomFilter(3, BorderMode::Reflect101, seed + 100);
  engine.setFilter(other);
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, other).view()), kTolerance);
  const FilterSet wrap = other.withBorder(BorderMode::Wrap);
  engine.setFilter(wrap);
  EXPECT_LE(maxAbsDiff(convolve(engine, in).view(), referenceOf(in, wrap).view()), kTolerance);
}

}  // namespace
}  // namespace convolab::test
