// SPDX-License-Identifier: MIT
// fft at K 17-63: every border mode against the CPU reference on odd and tiny frames (±1), and exactness:
// with integer weights over a power-of-two divisor it differs from the exact result only at .5 ties.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "fft_columns.hpp"
#include "fft_plan.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

struct FftFrame {
  int width, height;
  std::size_t padding;
};
constexpr FftFrame kFftFrames[] = {{1, 1, 0}, {2, 3, 0}, {23, 17, 5}, {67, 41, 0}};

/// K and the path: the default (on PoCL the columns path: VkFFT's row transforms around fft_columns.cl's
/// columns, between fft.cl's pad and crop, the frame in the tiles the device's rule picks), "planes" (VkFFT's
/// 2-D transforms, the GPUs' default, one tile), "tiles" (the same over 2 × 3 tiles, partial ones at the
/// right and bottom edges, six one-pixel tiles in the 2 × 3 frame), "columns-tiles" (the columns path over 2
/// × 3 tiles), "columns-local" (the columns path with the GPUs' kernel, fft_columns_local.cl, over 2 × 3
/// tiles: columns of 32, 48 and 81 rows, every radix) or "rows" (fft_rows.cl's row transforms around VkFFT's
/// columns), asked for through the variant.
using FftCase = std::tuple<int, std::string>;
class FftLargeKernel : public ::testing::TestWithParam<FftCase> {};

TEST_P(FftLargeKernel, EveryBorderMatchesReference) {
  const auto& [k, path] = GetParam();
  auto ctx = sharedContext();
  auto fft = createStrategy("fft");
  fft->setTuningVariant(path);
  for (BorderMode border : kAllBorderModes) {
    const FilterSet filter =
        randomFilter(k, border, static_cast<std::uint32_t>(k * 5 + static_cast<int>(border)));
    if (auto reason = fft->unsupportedReason(*ctx, filter)) GTEST_SKIP() << *reason;
    std::vector<FftFrame> frames(std::begin(kFftFrames), std::end(kFftFrames));
    if (path == "rows") frames.push_back({1100, 9, 3});  // rows of 2048 samples, as at 720p and 1080p
    for (const FftFrame& s : frames) {
      SCOPED_TRACE(path + " " + std::string(borderName(border)) + " " + std::to_string(s.width) + "x" +
                   std::to_string(s.height));
      const Image in = randomImage(s.width, s.height, static_cast<std::uint32_t>(s.width + k), s.padding);
      const Image out = runDirect(*fft, *ctx, filter, in);
      const Image ref = referenceOf(in, filter);
      EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
          << firstMismatch(out.view(), ref.view(), kTolerance);
    }
  }
}

std::string fftCaseName(const ::testing::TestParamInfo<FftCase>& i) {
  std::string path = std::get<1>(i.param);
  std::replace(path.begin(), path.end(), '-', '_');  // test names take letters, digits and '_'
  return "k" + std::to_string(std::get<0>(i.param)) + (path.empty() ? "" : "_" + path);
}

// One strategy for the five borders: the transform plans (per padded size) are built once per K. The rows
// path at the largest K (its rows are powers of two, 256 samples for these frames; K is the padding's
// radius there, an argument of its one program per row length).
INSTANTIATE_TEST_SUITE_P(K, FftLargeKernel,
                         ::testing::Values(FftCase{17, ""}, FftCase{31, ""}, FftCase{45, ""}, FftCase{63, ""},
                                           FftCase{63, "rows"}, FftCase{45, "tiles"}, FftCase{45, "planes"},
                                           FftCase{45, "columns-tiles"}, FftCase{17, "columns-local"},
                                           FftCase{31, "columns-local"}, FftCase{63, "columns-local"}),
                         fftCaseName);

/// The unrounded result of channel c at (x, y), in double: exact here (integer weights over 64, bytes).
double exactValue(const Image& in, const FilterSet& f, int c, int x, int y) {
  const ChannelFilter& ch = f.channel(c);
  const int r = ch.radius();
  double sum = 0;
  for (int j = 0; j < ch.size; ++j)
    for (int i = 0; i < ch.size; ++i) {
      const int bx = borderInterpolate(x + i - r, in.width, f.border());
      const int by = borderInterpolate(y + j - r, in.height, f.border());
      const double p = bx < 0 || by < 0
                           ? f.borderValue()[static_cast<size_t>(c)]
                           : in.view().row(by)[static_cast<size_t>(bx) * 3 + static_cast<size_t>(c)];
      sum += ch.at(j, i) * p;
    }
  return ch.offset + sum / ch.divisor;
}

// Weights in {-1, 0, 1} over 64 and offset 128: every exact value is a multiple of 1/64, so a float error
// below 1/128 can change a rounded byte only where the exact value sits on a .5 tie. Counts those.
class FftPaths : public ::testing::TestWithParam<std::string> {};

/// The 31×31 filter of those tests: many exact values on a .5 tie, which the paths round differently.
FilterSet tieFilter(BorderMode border) {
  std::mt19937 rng(31);
  std::uniform_int_distribution<int> tap(-1, 1);
  ChannelFilter ch;
  ch.size = 31;
  ch.matrix.resize(31 * 31);
  for (double& v : ch.matrix) v = tap(rng);
  ch.divisor = 64;
  ch.offset = 128;
  return FilterSet::make({ch, ch, ch}, border, {17, 200, 64});
}

TEST_P(FftPaths, DiffersOnlyAtRoundingTies) {
  auto ctx = sharedContext();
  auto fft = createStrategy("fft");
  fft->setTuningVariant(GetParam());
  int ties = 0, tiesFlipped = 0, others = 0;
  for (BorderMode border : {BorderMode::Reflect101, BorderMode::Constant}) {
    const FilterSet filter = tieFilter(border);
    const Image in = randomImage(67, 41, 5);
    const Image out = runDirect(*fft, *ctx, filter, in);
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x)
        for (int c = 0; c < 3; ++c) {
          const double exact = exactValue(in, filter, c, x, y);
          const bool tie = exact - std::floor(exact) == 0.5;
          const int expected = static_cast<int>(std::clamp(std::nearbyint(exact), 0.0, 255.0));
          const int got = out.view().row(y)[x * 3 + c];
          ties += tie;
          if (got != expected) (tie && std::abs(got - expected) == 1 ? tiesFlipped : others) += 1;
        }
  }
  std::printf(
      "fft (%s) K=31: %d values on a .5 tie, %d of them rounded the other way; %d other differences\n",
      GetParam().c_str(), ties, tiesFlipped, others);
  EXPECT_EQ(others, 0);
}

// The planes' sides: even, no prime factor above the limit (GPUs 3, CPUs 7), the smallest such; and the GPUs'
// 2^a·3^b planes (CONVOLAB_FFT_TUNING's primes=3, as a GPU plans them) give the same results here.
TEST(FftExactness, PlaneSidesAreSmoothAndEitherRuleIsExact) {
  EXPECT_EQ(fftFriendlySize(1950, 7), 1960);
  EXPECT_EQ(fftFriendlySize(1110, 7), 1120);
  EXPECT_EQ(fftFriendlySize(1950, 3), 2048);
  EXPECT_EQ(fftFriendlySize(1110, 3), 1152);
  EXPECT_EQ(fftFriendlySize(97, 3), 108);
  EXPECT_EQ(fftFriendlySize(1, 3), 2);
  auto ctx = sharedContext();
  const FilterSet filter = randomFilter(17, BorderMode::Reflect, 3);
  const Image in = randomImage(67, 41, 3);
  const Image ref = referenceOf(in, filter);
  ::setenv("CONVOLAB_FFT_TUNING", "primes=3", 1);
  auto fft = createStrategy("fft");
  const Image out = runDirect(*fft, *ctx, filter, in);
  ::unsetenv("CONVOLAB_FFT_TUNING");
  EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
      << firstMismatch(out.view(), ref.view(), kTolerance);
}

// The tile grids the default picks where they were measured (docs/BENCHMARKS.md, 2026-12-04 tiles, GPUs;
// 2026-12-05 the columns path, CPUs), and
// what every grid must be: tiles that cover the frame, none empty, planes that hold a tile and its K − 1.
TEST(FftTiles, DefaultGridsAreTheMeasuredOnesAndCoverTheFrame) {
  struct Case {
    bool gpu;
    int width, height, k, tilesX, tilesY, nx, ny;
    int maxColumnRows = 0;  // the GPUs' columns path (648: 48 KB of local memory, the H100)
  };
  for (const Case& c :
       {Case{true, 1920, 1080, 31, 4, 2, 512, 576, 648}, Case{true, 1920, 1080, 63, 2, 2, 1024, 648, 648},
        Case{true, 1280, 720, 31, 1, 1, 1458, 768, 648},  // no grid's planes are short enough: all grids
        Case{true, 1920, 1080, 31, 4, 2, 512, 576}, Case{true, 1920, 1080, 63, 2, 1, 1024, 1152},
        Case{false, 1920, 1080, 31, 4, 2, 512, 576}, Case{false, 1920, 1080, 63, 2, 1, 1024, 1152},
        Case{false, 1280, 720, 31, 3, 1, 512, 768}, Case{false, 641, 361, 45, 1, 1, 686, 432},
        Case{true, 1, 1, 63, 1, 1, 64, 64}}) {
    SCOPED_TRACE(std::to_string(c.width) + "x" + std::to_string(c.height) + " K " + std::to_string(c.k) +
                 (c.gpu ? " gpu" : " cpu") + " max rows " + std::to_string(c.maxColumnRows));
    const FftTileGrid g = fftDefaultTileGrid(c.gpu, c.width, c.height, c.k, c.maxColumnRows);
    EXPECT_EQ(g.tilesX, c.tilesX);
    EXPECT_EQ(g.tilesY, c.tilesY);
    EXPECT_EQ(g.nx, c.nx);
    EXPECT_EQ(g.ny, c.ny);
  }
  for (int w : {1, 2, 5, 23, 67, 1920})
    for (int t = 1; t <= 4; ++t) {
      const FftTileGrid g = fftTileGrid(w, w + 1, 17, 7, t, t);
      EXPECT_GE(g.tilesX * g.tw, w);
      EXPECT_LT((g.tilesX - 1) * g.tw, w) << "an empty tile";
      EXPECT_GE(g.tilesY * g.th, w + 1);
      EXPECT_LT((g.tilesY - 1) * g.th, w + 1) << "an empty tile";
      EXPECT_GE(g.nx, g.tw + 16);
      EXPECT_GE(g.ny, g.th + 16);
    }
}

// The default is the columns path on every device (fft_columns_local.cl on a GPU, fft_columns.cl on a CPU),
// over the default grid. The two paths round some ties differently, so the default's bytes say which ran (the
// planes path's bytes must differ, or this proves nothing).
TEST(FftDefault, RunsTheColumnsPath) {
  auto ctx = sharedContext();
  const FilterSet filter = tieFilter(BorderMode::Reflect101);
  const Image in = randomImage(67, 41, 5);
  auto run = [&](const char* tuning) {
    if (tuning) ::setenv("CONVOLAB_FFT_TUNING", tuning, 1);
    auto fft = createStrategy("fft");
    const Image out = runDirect(*fft, *ctx, filter, in);
    ::unsetenv("CONVOLAB_FFT_TUNING");
    return out;
  };
  const Image byDefault = run(nullptr), columns = run("columns=1"), planes = run("columns=0");
  ASSERT_GT(maxAbsDiff(columns.view(), planes.view()), 0) << "the two paths agree here: the test cannot tell";
  EXPECT_EQ(maxAbsDiff(byDefault.view(), columns.view()), 0);
}

// Which columns fft_columns_local.cl takes: on the H100's 48 KB of local memory, eight columns of up to 648
// rows a work-group (the GPU default grid's limit), 1080p K = 31's 576 rows eight at a time, K = 63's 1152
// four at a time; with 4 KB none of those (the default then takes the planes path).
TEST(FftColumnsRules, LocalMemoryBoundsTheColumns) {
  DeviceInfo h100;
  h100.isGpu = true;
  h100.localMemBytes = 48 * 1024;
  h100.maxWorkGroupSize = 1024;
  h100.constantBufferBytes = 64 * 1024;
  EXPECT_EQ(fftFullWidthColumnRows(h100), 648);
  EXPECT_EQ(fftLocalColumns(h100, 576), 8);
  EXPECT_EQ(fftLocalColumns(h100, 1152), 4);
  EXPECT_TRUE(fftLocalColumnsFit(h100, 1152));
  EXPECT_FALSE(fftLocalColumnsFit(h100, 50)) << "50 = 2·5²: no radix-5 pass";
  DeviceInfo small = h100;
  small.localMemBytes = 4 * 1024;
  EXPECT_FALSE(fftLocalColumnsFit(small, 576));
  EXPECT_LT(fftFullWidthColumnRows(small), 64);
  EXPECT_EQ(fftColumnRadices(576), (std::vector<int>{4, 4, 4, 3, 3}));
  EXPECT_EQ(fftLocalSplit(1152), (std::pair<int, int>{32, 36}));
}

// The columns path takes only 2^a·3^b columns, whatever CONVOLAB_FFT_TUNING's primes asks of the other sizes
// (with primes=7, 34 + 16 rows would pad to 50 = 2·5², which fft_columns.cl cannot transform).
TEST(FftDefault, ColumnsPathIgnoresThePrimesKnob) {
  auto ctx = sharedContext();
  ::setenv("CONVOLAB_FFT_TUNING", "primes=7", 1);
  auto fft = createStrategy("fft");
  fft->setTuningVariant("columns");
  const FilterSet filter = randomFilter(17, BorderMode::Reflect101, 9);
  const Image in = randomImage(67, 34, 3);
  std::optional<Image> out;
  EXPECT_NO_THROW(out = runDirect(*fft, *ctx, filter, in));
  ::unsetenv("CONVOLAB_FFT_TUNING");
  ASSERT_TRUE(out.has_value());
  EXPECT_LE(maxAbsDiff(out->view(), referenceOf(in, filter).view()), kTolerance);
}

// A prepare that fails part way (here fft_columns_local.cl refusing columns taller than local memory holds,
// after the path and the grid were chosen) leaves nothing a filter edit could reuse: the strategy asks for a
// full prepare, and then works again. The height comes from the device: PoCL's local memory follows the host
// (2 MiB on the machine where a fixed 400,000 rows fitted, 2026-12-07, and nothing failed).
TEST(FftDefault, AFailedPrepareLeavesNoHalfSetPlan) {
  auto ctx = sharedContext();
  auto fft = createStrategy("fft");
  fft->setTuningVariant("planes");
  const FilterSet filter = randomFilter(17, BorderMode::Reflect101, 9);
  fft->prepare(*ctx, filter, 67, 41);
  ASSERT_TRUE(fft->preparesWithoutBuild(*ctx, filter));
  fft->setTuningVariant("columns-local");
  // columns-local cuts the frame into 3 tiles down: each column at least a third of the height, 8 bytes a
  // row.
  const std::uint64_t local = ctx->device().localMemBytes ? ctx->device().localMemBytes : 32768;
  const int tooTall = static_cast<int>(3 * (local / 8 + 64));
  try {
    fft->prepare(*ctx, filter, 67, tooTall);
    ADD_FAILURE() << "prepare of 67 x " << tooTall << " did not throw (local memory " << local << " bytes)";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("do not fit local memory"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fft->preparesWithoutBuild(*ctx, filter));
  const Image in = randomImage(67, 41, 3);
  EXPECT_LE(maxAbsDiff(runDirect(*fft, *ctx, filter, in).view(), referenceOf(in, filter).view()), kTolerance);
}

// White stays 255 and black 0 through a normalised 17×17 box; offsets of ±400 saturate to exactly 255 and 0
// (fft declines the small filters of ExactArithmetic.SaturationGivesExactly255And0).
TEST_P(FftPaths, SaturatesToExactly255And0) {
  auto ctx = sharedContext();
  auto fft = createStrategy("fft");
  fft->setTuningVariant(GetParam());
  ChannelFilter box;
  box.size = 17;
  box.matrix.assign(17 * 17, 1.0);
  box.divisor = 289;
  ChannelFilter up = box, down = box;
  up.offset = 400;
  down.offset = -400;
  const FilterSet filter = FilterSet::make({box, up, down});
  for (std::uint8_t value : {std::uint8_t{255}, std::uint8_t{0}}) {
    Image in(67, 41);  // the size (and so the transform plan) of FftLargeKernel/k17's largest frame
    std::fill(in.pixels.begin(), in.pixels.end(), value);
    const Image out = runDirect(*fft, *ctx, filter, in);
    EXPECT_EQ(maxAbsDiff(out.view(), referenceOf(in, filter).view()), 0) << "frame of " << int(value);
  }
}

INSTANTIATE_TEST_SUITE_P(Fft, FftPaths,
                         ::testing::Values("planes", "rows", "tiles", "columns", "columns-local"),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string name = i.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace convolab::test
