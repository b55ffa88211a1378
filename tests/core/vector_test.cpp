// vector: every tunable shape (GPU- and CPU-style, odd ones too) against the reference, borders and tiny
// frames.
#include <gtest/gtest.h>

#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

/// Runs `strategy` directly (no engine, so no fallback can hide a failure) on a packed copy of `in`.
Image runStrategy(Strategy& strategy, const FilterSet& filter, const Image& in) {
  auto ctx = sharedContext();
  const size_t bytes = static_cast<size_t>(in.width) * in.height * 3;
  cl::Buffer src(ctx->context(), CL_MEM_READ_ONLY, bytes), dst(ctx->context(), CL_MEM_WRITE_ONLY, bytes);
  ctx->queue().enqueueWriteBuffer(src, CL_TRUE, 0, bytes, in.pixels.data());
  strategy.prepare(*ctx, filter, in.width, in.height);
  auto events = strategy.enqueue(*ctx, {src, dst, in.width, in.height}, {});
  Image out(in.width, in.height);
  ctx->queue().enqueueReadBuffer(dst, CL_TRUE, 0, bytes, out.pixels.data());
  return out;
}

struct Case {
  int k;
  BorderMode border;
};

// GPU-style (unrolled, rows in registers) and CPU-style (private row buffer, filter-row loop) shapes, plus
// odd work-group shapes; small blocks see both the interior and the border path on small frames.
constexpr const char* kVariants[] = {"b4x8-wg32x4-f1-s1-c0", "b8x3-wg5x3-f1-s1-c0", "b16x4-wg8x8-f1-s1-c1",
                                     "b4x1-wg7x2-f1-s1-c1"};

// Every border with K = 3; the others where building all of them would only cost time.
constexpr Case kCases[] = {
    {1, BorderMode::Reflect101}, {3, BorderMode::Replicate},
    {3, BorderMode::Reflect},    {3, BorderMode::Reflect101},
    {3, BorderMode::Wrap},       {3, BorderMode::Constant},
    {7, BorderMode::Reflect101}, {7, BorderMode::Constant},
    {11, BorderMode::Reflect}};  // K = 15: the sweep (GPU-style K = 15 compiles slowly here)

TEST(Vector, EveryShapeMatchesReference) {
  auto ctx = sharedContext();
  for (const char* variant : kVariants) {
    const bool oddShape = variant != kVariants[0] && variant != kVariants[2];
    for (const auto& [k, border] : kCases) {
      // Every border only for the two default-like shapes; the odd shapes test geometry.
      if (oddShape && k == 3 && border != BorderMode::Reflect101) continue;
      const FilterSet filter =
          randomFilter(k, border, static_cast<std::uint32_t>(k * 13 + static_cast<int>(border)));
      auto strategy = createStrategy("vector");
      strategy->setTuningVariant(variant);
      ASSERT_FALSE(strategy->unsupportedReason(*ctx, filter).has_value()) << variant;
      for (auto [w, h] : {std::pair{1, 1}, {2, 3}, {37, 29}, {130, 67}}) {
        SCOPED_TRACE(std::string(variant) + " k" + std::to_string(k) + " " + std::string(borderName(border)) +
                     " " + std::to_string(w) + "x" + std::to_string(h));
        const Image in = randomImage(w, h, static_cast<std::uint32_t>(w * 7 + h));
        const Image out = runStrategy(*strategy, filter, in);
        Image ref(w, h);
        referenceConvolve(in.view(), ref.mutableView(), filter);
        EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
            << firstMismatch(out.view(), ref.view(), kTolerance);
      }
    }
  }
}

TEST(Vector, CoefficientChangeFollowsNewWeights) {
  // Same K and border, new weights: prepare() only re-uploads them; the output must follow.
  auto ctx = sharedContext();
  auto strategy = createStrategy("vector");
  const Image in = randomImage(64, 40, 5);
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    const FilterSet filter = randomFilter(5, BorderMode::Reflect101, seed);
    const Image out = runStrategy(*strategy, filter, in);
    Image ref(in.width, in.height);
    referenceConvolve(in.view(), ref.mutableView(), filter);
    EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance);
  }
}

TEST(Vector, UnknownVariantKeepsDefault) {
  auto ctx = sharedContext();
  auto strategy = createStrategy("vector");
  strategy->setTuningVariant("nonsense");
  const FilterSet filter = randomFilter(3, BorderMode::Reflect, 9);
  const Image in = randomImage(20, 10, 3);
  const Image out = runStrategy(*strategy, filter, in);
  Image ref(in.width, in.height);
  referenceConvolve(in.view(), ref.mutableView(), filter);
  EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance);
}

}  // namespace
}  // namespace convolab::test
