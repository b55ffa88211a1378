// SPDX-License-Identifier: MIT
// separable and lowrank run one fused launch (kernels/lowrank.cl): row passes into local memory, column
// passes from there. One event per frame, and every launch shape matches the reference on frames whose rows
// start at every byte offset within a word (the row pass's shifted word loads) and end inside a work-item's
// pixels.
#include <gtest/gtest.h>

#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

TEST(FusedLowrank, OneLaunchPerFrame) {
  auto ctx = sharedContext();
  const struct {
    const char* strategy;
    std::array<int, 3> ranks;
  } cases[] = {{"separable", {1, 1, 1}}, {"lowrank", {2, 1, 2}}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.strategy);
    const FilterSet f = rankFilter(7, c.ranks, BorderMode::Reflect101, 11);
    auto s = createStrategy(c.strategy);
    ASSERT_FALSE(s->unsupportedReason(*ctx, f));
    const int width = 70, height = 19;
    const size_t bytes = static_cast<size_t>(width) * height * 3;
    const Image in = randomImage(width, height, 5);
    FrameBuffers frame{cl::Buffer(ctx->context(), CL_MEM_READ_ONLY, bytes),
                       cl::Buffer(ctx->context(), CL_MEM_WRITE_ONLY, bytes), width, height};
    ctx->queue().enqueueWriteBuffer(frame.input, CL_TRUE, 0, bytes, in.pixels.data());
    s->prepare(*ctx, f, width, height);
    const auto events = s->enqueue(*ctx, frame, {});
    // The two-pass version launched a row kernel into a float intermediate 4x the frame, then a column one.
    ASSERT_EQ(events.size(), 1u);
    Image out(width, height);
    const std::vector<cl::Event> last{events.back().event};
    ctx->queue().enqueueReadBuffer(frame.output, CL_TRUE, 0, bytes, out.pixels.data(), &last);
    const Image ref = referenceOf(in, f);
    EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
        << firstMismatch(out.view(), ref.view(), kTolerance);
  }
}

TEST(FusedLowrank, EveryShapeMatchesTheReference) {
  auto ctx = sharedContext();
  // 101 pixels: 303-byte rows, so rows start at all four offsets within a word; 101 is no multiple of 4 or 8.
  // 92 pixels: rows of whole words (the kernel's ROW_WORDS path), the last work-item's pixels cut short.
  const Image odd = randomImage(101, 23, 17), words = randomImage(92, 21, 18);
  const struct {
    const char* strategy;
    const char* shape;
    std::array<int, 3> ranks;
    int k;
    BorderMode border;
  } cases[] = {
      {"separable", "f4x1-wg4x2", {1, 1, 1}, 7, BorderMode::Reflect101},
      {"separable", "f8x3-wg2x4", {1, 0, 1}, 5, BorderMode::Constant},
      {"separable", "f4x2-wg32x8", {1, 1, 1}, 3, BorderMode::Replicate},
      {"lowrank", "f8x2-wg4x4", {2, 2, 1}, 7, BorderMode::Wrap},
      {"lowrank", "f4x4-wg8x2", {2, 1, 2}, 9, BorderMode::Constant},
      // 6·3·15 factors are more than a 1 KiB argument space holds (PoCL): they go through a __constant
      // buffer.
      {"lowrank", "f4x2-wg8x4", {3, 1, 3}, 15, BorderMode::Reflect},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.strategy) + " " + c.shape + " K=" + std::to_string(c.k) + " " +
                 std::string(borderName(c.border)));
    const FilterSet f = rankFilter(c.k, c.ranks, c.border, static_cast<std::uint32_t>(c.k * 7 + 1));
    auto s = createStrategy(c.strategy);
    ASSERT_FALSE(s->unsupportedReason(*ctx, f));
    s->setTuningVariant(c.shape);
    for (const Image* in : {&odd, &words}) {
      SCOPED_TRACE(std::to_string(in->width) + " pixels wide");
      const Image out = runDirect(*s, *ctx, f, *in);
      const Image ref = referenceOf(*in, f);
      EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
          << firstMismatch(out.view(), ref.view(), kTolerance);
    }
  }
}

}  // namespace
}  // namespace convolab::test
