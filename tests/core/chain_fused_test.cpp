// SPDX-License-Identifier: MIT
// The fused chain (kernels/fused.cl: every step in one launch, halos recomputed in local memory) against the
// steps run one after another: bit for bit where the arithmetic is exact (chains of 2, 3 and 8 steps, K 3–15,
// every border at the image edges, magnitude and switched-off steps, images smaller than the halo), and
// auto's measurement of fused against step by step.
#include <gtest/gtest.h>

#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/reference.hpp"
#include "test_support.hpp"

namespace convolab {
void setFusedChainStyleForTesting(int style);  // fused_chain.cpp: -1 device, 0 CPU, 1 GPU literal, 2 generic
void setFusedGpuShapeForTesting(const std::string& shapes);  // fused_gpu.cpp: "WXxWYxR,…", "" the default
}  // namespace convolab

namespace convolab::test {
namespace {

/// `chain` with every wrap border after the first step made reflect101: fused reads wrap only from the input.
FilterChain withoutLaterWrap(const FilterChain& chain) {
  std::vector<ChainStep> steps = chain.steps();
  for (size_t i = 1; i < steps.size(); ++i)
    if (steps[i].filter.border() == BorderMode::Wrap) {
      steps[i].filter = steps[i].filter.withBorder(BorderMode::Reflect101);
      if (steps[i].other) steps[i].other = steps[i].other->withBorder(BorderMode::Reflect101);
    }
  return FilterChain::make(steps, chain.name());
}

/// `chain` with its first step's border set to `border`.
FilterChain withFirstBorder(const FilterChain& chain, BorderMode border) {
  std::vector<ChainStep> steps = chain.steps();
  steps[0].filter = steps[0].filter.withBorder(border);
  if (steps[0].other) steps[0].other = steps[0].other->withBorder(border);
  return FilterChain::make(steps, chain.name());
}

Image runChain(const FilterChain& chain, const Image& in, ChainFusion fusion, std::string* ran = nullptr) {
  Engine engine(sharedContext(), "naive");
  engine.setChainFusion(fusion);
  engine.setChain(chain);
  Image out = convolve(engine, in);
  if (ran) *ran = engine.activeStrategyId().note;
  return out;
}

TEST(ChainFused, ExactChainsEqualTheStepByStepRunBitForBit) {
  int compared = 0;
  // Few distinct programs (each costs a compile on a cold PoCL cache): the 8-step chain turns its first
  // step's border through all five, the 2- and 3-step chains run once.
  const std::vector<std::pair<std::vector<int>, std::vector<std::uint32_t>>> cases = {
      {{3, 5}, {0}}, {{7, 3, 15}, {1}}, {{3, 5, 3, 3, 5, 3, 7, 3}, {0, 1, 2, 3, 4}}};
  for (const auto& [ks, seeds] : cases)
    for (std::uint32_t seed : seeds) {
      // The 8-step chain keeps seed 0's weights (each set of weights is a program of its own: they are
      // literals) and turns only its first step's border.
      const FilterChain chain = withoutLaterWrap(
          seeds.size() == 1 ? randomChain(ks, seed, /*exact=*/true)
                            : withFirstBorder(randomChain(ks, 0, /*exact=*/true), kAllBorderModes[seed]));
      for (auto [w, h] : {std::pair{37, 21}, {2, 3}}) {
        const Image in = randomImage(w, h, seed + 10);
        std::string ran;
        const Image fused = runChain(chain, in, ChainFusion::Fused, &ran);
        ASSERT_EQ(ran, "chain: 1 fused") << ks.size() << " steps, seed " << seed;
        // The step-by-step run equals referenceChain wherever the arithmetic is exact (ChainStrategies, every
        // strategy); running it here too for every case would double the programs a cold cache compiles.
        if (ks.size() == 2) {
          const Image steps = runChain(chain, in, ChainFusion::StepByStep);
          EXPECT_EQ(firstMismatch(fused.view(), steps.view(), 0), "") << w << "x" << h;
        }
        Image ref(w, h);
        referenceChain(in.view(), ref.mutableView(), chain);
        EXPECT_EQ(firstMismatch(fused.view(), ref.view(), 0), "") << ks.size() << " steps, seed " << seed;
        ++compared;
      }
    }
  EXPECT_EQ(compared, 14);
}

TEST(ChainFused, RandomChainsMatchTheReferenceWithinOne) {
  const FilterChain chain = withoutLaterWrap(randomChain({5, 3, 7}, 6, /*exact=*/false));
  const Image in = randomImage(45, 27, 6);
  Image ref(in.width, in.height);
  referenceChain(in.view(), ref.mutableView(), chain);
  const Image fused = runChain(chain, in, ChainFusion::Fused);
  long differ = 0;
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width * 3; ++x) differ += fused.view().row(y)[x] != ref.view().row(y)[x];
  EXPECT_LE(differ * 1000, static_cast<long>(in.width) * in.height * 3) << differ << " values differ";
}

/// The label of the last fused program built or taken from the pool ("fused_literal", "fused_gpu" or
/// "fused").
std::string lastFusedBuild() {
  const std::vector<BuildInfo> log = sharedContext()->buildLog();
  for (auto it = log.rbegin(); it != log.rend(); ++it)
    if (it->label.rfind("fused", 0) == 0) return it->label;
  return "";
}

TEST(ChainFused, LiteralKernelsOfEitherStyleAndTheGenericOneAreExactAtEveryBorder) {
  // A dense 7×7 step, a magnitude of two 3×3 and a 5×5, on an image of several CPU and GPU tiles with odd
  // edges (a partial tile both ways, the last float16 chunk cut short): one program per style, the first
  // step's border turned through all five (the later steps' move with it, wrap excepted).
  const FilterChain base = randomChain({7, 3, 5}, 4, /*exact=*/true);
  const Image in = randomImage(263, 141, 4);
  setFusedGpuShapeForTesting("16x4x2");  // a small GPU-style program: PoCL compiles it in seconds
  for (int style : {0, 1, 2}) {
    setFusedChainStyleForTesting(style);
    for (BorderMode b : kAllBorderModes) {
      const FilterChain chain = withoutLaterWrap(base.withBorder(b));
      const Image fused = runChain(chain, in, ChainFusion::Fused);
      EXPECT_EQ(lastFusedBuild(), style == 2 ? "fused" : style == 1 ? "fused_gpu" : "fused_literal");
      Image ref(in.width, in.height);
      referenceChain(in.view(), ref.mutableView(), chain);
      EXPECT_EQ(firstMismatch(fused.view(), ref.view(), 0), "") << "style " << style << ", border " << int(b);
    }
  }
  setFusedChainStyleForTesting(-1);
  setFusedGpuShapeForTesting("");
}

TEST(ChainFused, GpuStyleShapesAreExactAtEveryEdge) {
  // The GPU style's register blocks in shapes whose tiles end inside the image on both axes and whose
  // earlier steps need more rows a work-item than the last: an 11×11 first step (float4 reads of two chunks
  // each side), a magnitude of two 3×3, a switched-off step, a 5×5; then a 5×5, a magnitude of two 3×3 and a
  // 7×7. Frames of several tiles: whole words a row (the inner tiles' input read as words) and odd edges,
  // and a 2×3 one.
  setFusedChainStyleForTesting(1);
  const std::vector<std::pair<std::vector<int>, const char*>> cases = {{{11, 3, 3, 5}, "8x4x2"},
                                                                       {{5, 3, 7}, "16x2x3"}};
  for (const auto& [ks, shapes] : cases) {
    setFusedGpuShapeForTesting(shapes);
    const FilterChain base = randomChain(ks, 7, /*exact=*/true);
    for (BorderMode b : {BorderMode::Reflect101, BorderMode::Constant, BorderMode::Replicate}) {
      const FilterChain chain = withoutLaterWrap(base.withBorder(b));
      for (auto [w, h] : {std::pair{104, 67}, {101, 35}, {2, 3}}) {
        const Image in = randomImage(w, h, 7);
        const Image fused = runChain(chain, in, ChainFusion::Fused);
        EXPECT_EQ(lastFusedBuild(), "fused_gpu") << shapes;
        Image ref(in.width, in.height);
        referenceChain(in.view(), ref.mutableView(), chain);
        EXPECT_EQ(firstMismatch(fused.view(), ref.view(), 0), "")
            << shapes << ", border " << int(b) << ", " << w << "x" << h;
      }
    }
  }
  setFusedGpuShapeForTesting("");
  setFusedChainStyleForTesting(-1);
}

TEST(ChainFused, GpuStyleRunsTheColumnKernelWhereTheChainReachesOnePixel) {
  // A 1×1 step, then a magnitude of two 3×3 (a Sobel magnitude's reach): the GPU style keeps the one-column
  // kernel of fused_literal.cpp there (faster than per-channel work-groups on the H200), exact at every
  // border.
  setFusedChainStyleForTesting(1);
  const FilterChain base = randomChain({1, 3}, 3, /*exact=*/true);
  for (BorderMode b : kAllBorderModes) {
    const FilterChain chain = withoutLaterWrap(base.withBorder(b));
    for (auto [w, h] : {std::pair{104, 37}, {2, 3}}) {
      const Image in = randomImage(w, h, 3);
      const Image fused = runChain(chain, in, ChainFusion::Fused);
      EXPECT_EQ(lastFusedBuild(), "fused_literal");
      Image ref(in.width, in.height);
      referenceChain(in.view(), ref.mutableView(), chain);
      EXPECT_EQ(firstMismatch(fused.view(), ref.view(), 0), "")
          << "border " << int(b) << ", " << w << "x" << h;
    }
  }
  setFusedChainStyleForTesting(-1);
}

TEST(ChainFused, ChainsTooLongForLiteralsRunTheGenericKernel) {
  // Four switched-on 15×15 steps (two of them magnitudes): far more multiply-adds per block than the literal
  // kernel's budget, and a halo wider than a GPU-style tile.
  const FilterChain chain = withoutLaterWrap(randomChain({15, 15, 15, 15, 15}, 5, /*exact=*/true));
  const Image in = randomImage(40, 30, 5);
  const Image fused = runChain(chain, in, ChainFusion::Fused);
  EXPECT_EQ(lastFusedBuild(), "fused");
  Image ref(in.width, in.height);
  referenceChain(in.view(), ref.mutableView(), chain);
  EXPECT_EQ(firstMismatch(fused.view(), ref.view(), 0), "");
}

TEST(ChainFused, DeclinesAWrapAfterTheFirstStepAndRunsStepByStep) {
  const FilterSet a = exactFilter(3, BorderMode::Reflect, 1), b = exactFilter(3, BorderMode::Wrap, 2);
  Engine engine(sharedContext(), "naive");
  engine.setChainFusion(ChainFusion::Fused);
  engine.setChain(FilterChain::make({ChainStep::single(a), ChainStep::single(b)}));
  const Image in = randomImage(11, 7, 1);
  (void)convolve(engine, in);
  EXPECT_EQ(engine.activeStrategyId().note, "chain: 1 naive, 2 naive");
  const auto notices = engine.takeNotices();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(notices[0].find("step 2 wraps"), std::string::npos) << notices[0];
}

TEST(ChainFused, AutoMeasuresFusedAgainstStepByStepAndKeepsTheFaster) {
  const CoreConfig saved = coreConfig();
  CoreConfig config = saved;
  // The steps' own auto runs its provisional strategy (no measurement starts within the test's seconds); the
  // chain's fused-or-not comparison is measured on the first frame.
  config.autoMeasure = CoreConfig::AutoMeasure::Background;
  config.autoQuietMs = 600000;
  setCoreConfig(config);
  {
    const FilterChain chain = withoutLaterWrap(randomChain({3, 3}, 2, /*exact=*/true));
    Engine engine(sharedContext(), "dynamic");  // a named strategy: step by step, nothing measured
    engine.setChain(chain);
    const Image in = randomImage(64, 48, 2);
    (void)convolve(engine, in);
    EXPECT_TRUE(engine.takeNotices().empty());
    engine.setStrategy("auto");
    (void)convolve(engine, in);
    bool measured = false;
    for (const std::string& n : engine.takeNotices())
      measured =
          measured || (n.find("fused") != std::string::npos && n.find("step by step") != std::string::npos);
    EXPECT_TRUE(measured);
    Image ref(in.width, in.height);
    referenceChain(in.view(), ref.mutableView(), chain);
    EXPECT_EQ(firstMismatch(convolve(engine, in).view(), ref.view(), 0), "")
        << engine.activeStrategyId().describe();
  }
  setCoreConfig(saved);
}

}  // namespace
}  // namespace convolab::test
