// SPDX-License-Identifier: MIT
// Where the arithmetic is exact (integer weights, power-of-two divisors, saturation), every strategy must
// give the reference's bytes exactly: the sweep's ±1 tolerance would hide a store that truncates or saturates
// at 254. A factorised pass (separable, lowrank, or a fused rank-1 pass) multiplies by inexact SVD factors,
// so it may differ by 1 only where the exact value is a .5 tie. And over a random sweep no strategy may be
// biased. Iterates the registry: a new strategy is checked without edits here.
#include <gtest/gtest.h>

#include <cmath>

#include "convolab/analysis.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"
#include "tile_shape.hpp"

namespace convolab::test::exact_arithmetic {
namespace {

ChannelFilter integerChannel(int k, std::vector<double> matrix, double divisor, double offset = 0) {
  ChannelFilter f;
  f.size = k;
  f.matrix = std::move(matrix);
  f.divisor = divisor;
  f.offset = offset;
  return f;
}

/// col ⊗ row, a K×K matrix.
std::vector<double> outer(const std::vector<double>& col, const std::vector<double>& row) {
  std::vector<double> m;
  for (double c : col)
    for (double r : row) m.push_back(c * r);
  return m;
}

std::vector<double> plus(std::vector<double> a, const std::vector<double>& b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] += b[i];
  return a;
}

/// Random integer weights in [-3, 3], fixed seed: a dense (full-rank) matrix.
std::vector<double> randomIntegers(int k, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-3, 3);
  std::vector<double> m(static_cast<size_t>(k * k));
  for (auto& v : m) v = d(rng);
  return m;
}

struct ExactCase {
  std::string name;
  FilterSet filter;
};

/// Filters whose every output is exact in float: integer weights over a power-of-two divisor (ties at .5
/// included), and outputs far outside 0..255 on both sides.
std::vector<ExactCase> exactCases() {
  const std::vector<double> binomial5{1, 4, 6, 4, 1};
  const std::vector<double> sharpen{0, -1, 0, -1, 5, -1, 0, -1, 0};
  std::vector<ExactCase> cases;
  // Rank 1, /256: .5 ties wherever the weighted sum is 128 mod 256.
  cases.push_back(
      {"binomial5_div256", FilterSet::make({integerChannel(5, outer(binomial5, binomial5), 256),
                                            integerChannel(5, outer(binomial5, binomial5), 256, 3),
                                            integerChannel(5, outer(binomial5, binomial5), 256, -7)},
                                           BorderMode::Reflect101)});
  // Dense integers: saturates above 255 and below 0; /8 gives ties that must round half to even.
  cases.push_back({"dense_int_div8", FilterSet::make({integerChannel(5, randomIntegers(5, 1), 8),
                                                      integerChannel(5, randomIntegers(5, 2), 1),
                                                      integerChannel(5, randomIntegers(5, 3), 4, 0.5)},
                                                     BorderMode::Constant, {255, 0, 17})});
  // Rank 2 (what lowrank takes), /16, and a sharpen that saturates on both sides.
  const std::vector<double> a{1, 2, 1}, b{1, 0, -1}, c{1, 1, 1}, d{0, 1, 2};
  cases.push_back(
      {"rank2_div16_sharpen",
       FilterSet::make({integerChannel(3, plus(outer(a, b), outer(c, d)), 16, 128),
                        integerChannel(3, sharpen, 1), integerChannel(3, plus(outer(a, a), outer(b, c)), 2)},
                       BorderMode::Replicate)});
  // K = 1 and a 7×7 identity: copies, doubles (saturates above), inverts (255 − x) exactly.
  std::vector<double> identity7(49, 0.0);
  identity7[24] = 1;
  cases.push_back(
      {"k1_copy_double_invert", FilterSet::make({integerChannel(1, {1}, 1), integerChannel(1, {2}, 1),
                                                 integerChannel(1, {-1}, 1, 255)})});
  cases.push_back(
      {"k7_identity", FilterSet::make({integerChannel(7, identity7, 1), integerChannel(7, identity7, 1, 300),
                                       integerChannel(7, identity7, 1, -300)},
                                      BorderMode::Wrap)});
  return cases;
}

/// The reference's value before rounding and saturation (the same double sum it computes).
double unrounded(const Image& in, const FilterSet& filter, int x, int y, int c) {
  const ChannelFilter& f = filter.channels()[static_cast<size_t>(c)];
  const int r = f.radius();
  double sum = 0;
  for (int j = 0; j < f.size; ++j)
    for (int i = 0; i < f.size; ++i) {
      const int sx = borderInterpolate(x + i - r, in.width, filter.border());
      const int sy = borderInterpolate(y + j - r, in.height, filter.border());
      const double v =
          sx < 0 || sy < 0 ? filter.borderValue()[static_cast<size_t>(c)] : in.view().row(sy)[sx * 3 + c];
      sum += f.at(j, i) * v;
    }
  return f.offset + sum / f.divisor;
}

/// A pass that multiplies by SVD factors instead of the matrix: separable and lowrank always, codegen and
/// sliding for a rank-1 filter (their fused single pass).
bool factorised(const std::string& strategy, const FilterSet& filter) {
  if (strategy == "separable" || strategy == "lowrank") return true;
  return (strategy == "codegen" || strategy == "sliding") && analyzeFilter(filter).separable();
}

/// "" when `ours` equals the reference everywhere, allowing ±1 only at exact .5 ties when `tiesMayDiffer`.
std::string exactMismatch(const Image& in, const FilterSet& filter, const Image& ours, bool tiesMayDiffer) {
  const Image ref = referenceOf(in, filter);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x)
      for (int c = 0; c < 3; ++c) {
        const int o = ours.view().row(y)[x * 3 + c], e = ref.view().row(y)[x * 3 + c];
        if (o == e) continue;
        const double v = unrounded(in, filter, x, y, c);
        const bool tie = v - std::floor(v) == 0.5 && v > 0 && v < 255;
        if (tiesMayDiffer && tie && std::abs(o - e) == 1) continue;
        return "x=" + std::to_string(x) + " y=" + std::to_string(y) + " c=" + std::to_string(c) +
               " ours=" + std::to_string(o) + " ref=" + std::to_string(e) + " exact=" + std::to_string(v);
      }
  return {};
}

Image filled(int width, int height, std::uint8_t value) {
  Image img(width, height);
  std::fill(img.pixels.begin(), img.pixels.end(), value);
  return img;
}

std::vector<std::string> namesWithoutAuto() {
  std::vector<std::string> names;
  for (const auto& n : strategyNames())
    if (n != kAutoStrategy) names.push_back(n);
  return names;
}

class ExactArithmetic : public ::testing::TestWithParam<std::string> {};

TEST_P(ExactArithmetic, IntegerWeightsAndPowerOfTwoDivisorsAreExact) {
  const std::string& name = GetParam();
  auto ctx = sharedContext();
  int ran = 0;
  std::string declined;  // a strategy for large K only (fft) declines them all: skipped with its reason
  for (const ExactCase& exact : exactCases()) {
    auto s = createStrategy(name);
    if (auto reason = s->unsupportedReason(*ctx, exact.filter)) {
      declined = *reason;
      continue;
    }
    ++ran;
    const bool ties = factorised(name, exact.filter);
    for (auto [w, h] : {std::pair{37, 29}, {130, 67}, {2, 3}}) {
      SCOPED_TRACE(name + " " + exact.name + " " + std::to_string(w) + "x" + std::to_string(h));
      const Image in = randomImage(w, h, static_cast<std::uint32_t>(w * 13 + h));
      EXPECT_EQ(exactMismatch(in, exact.filter, runDirect(*s, *ctx, exact.filter, in), ties), "");
    }
  }
  if (ran == 0 && declined.find("K <") == 0) GTEST_SKIP() << name << ": " << declined;
  EXPECT_GT(ran, 0) << name << " declined every exact filter";
}

// White stays 255 and black stays 0 through a normalised filter (a store saturating at 254 fails here), and
// an offset far above 255 or below 0 saturates to exactly 255 or 0.
TEST_P(ExactArithmetic, SaturationGivesExactly255And0) {
  const std::string& name = GetParam();
  auto ctx = sharedContext();
  const std::vector<double> binomial3{1, 2, 1};
  const ChannelFilter blur = integerChannel(3, outer(binomial3, binomial3), 16);
  const FilterSet filters[] = {
      FilterSet::make({blur, blur, blur}),
      FilterSet::make({integerChannel(3, outer(binomial3, binomial3), 16, 400),
                       integerChannel(3, outer(binomial3, binomial3), 16, -400), blur}),
  };
  int ran = 0;
  std::string declined;
  for (const FilterSet& filter : filters) {
    auto s = createStrategy(name);
    if (auto reason = s->unsupportedReason(*ctx, filter)) {
      declined = *reason;
      continue;
    }
    ++ran;
    for (std::uint8_t value : {std::uint8_t{255}, std::uint8_t{0}}) {
      const Image in = filled(67, 19, value);
      const Image out = runDirect(*s, *ctx, filter, in);
      SCOPED_TRACE(name + " on a frame of " + std::to_string(value));
      EXPECT_EQ(maxAbsDiff(out.view(), referenceOf(in, filter).view()), 0)
          << firstMismatch(out.view(), referenceOf(in, filter).view(), 0);
    }
  }
  if (ran == 0 && declined.find("K <") == 0) GTEST_SKIP() << name << ": " << declined;
  EXPECT_GT(ran, 0) << name << " declined every saturation filter";
}

/// The first of the strategy's variants with a tile shape, in the other device type's code style (CPU code
/// stores through FAST_STORE, GPU code through convert_uchar_sat_rte), or "" when it has no such variants.
std::string otherStyleVariant(Strategy& strategy, const Context& ctx, const FilterSet& filter) {
  TileShape ownStyle;
  ownStyle.cpuStyle = !ctx.device().isGpu;
  for (const std::string& v : strategy.tuningVariants(ctx, filter))
    if (auto shape = TileShape::parse(v, ownStyle)) {
      shape->cpuStyle = !shape->cpuStyle;
      return shape->str();
    }
  return {};
}

// Each device type's store is tested on the other type's device too (the GPU store runs on PoCL here): exact
// ties and saturation, as above.
TEST_P(ExactArithmetic, TheOtherDeviceTypesCodeStyleIsExactToo) {
  const std::string& name = GetParam();
  auto ctx = sharedContext();
  const std::vector<double> binomial3{1, 2, 1};
  const FilterSet filters[] = {
      exactCases()[1].filter,  // dense integers /8: ties that round half to even, saturation both ways
      FilterSet::make({integerChannel(3, outer(binomial3, binomial3), 16, 400),
                       integerChannel(3, outer(binomial3, binomial3), 16, -400),
                       integerChannel(3, outer(binomial3, binomial3), 16)}),
  };
  const std::string variant = otherStyleVariant(*createStrategy(name), *ctx, filters[0]);
  if (variant.empty()) GTEST_SKIP() << name << " has one code style";
  for (const FilterSet& filter : filters) {
    auto s = createStrategy(name);
    s->setTuningVariant(variant);
    if (s->unsupportedReason(*ctx, filter)) continue;
    for (const Image& in : {randomImage(37, 29, 5), filled(37, 29, 255)}) {
      SCOPED_TRACE(name + "/" + variant);
      EXPECT_EQ(exactMismatch(in, filter, runDirect(*s, *ctx, filter, in), factorised(name, filter)), "");
    }
  }
}

// Mean signed error over random images and filters (dense, rank 1, rank 2): rounding errors of float
// accumulation go both ways and cancel; a store that truncates (or rounds half up) shifts the mean by up to
// half a level, which the ±1 tolerance lets through.
TEST_P(ExactArithmetic, NoBiasOverARandomSweep) {
  const std::string& name = GetParam();
  auto ctx = sharedContext();
  const FilterSet filters[] = {randomFilter(3, BorderMode::Reflect101, 71),
                               randomFilter(7, BorderMode::Replicate, 72),
                               rankFilter(5, {1, 1, 1}, BorderMode::Reflect101, 73),
                               rankFilter(7, {2, 2, 2}, BorderMode::Constant, 74)};
  for (const FilterSet& filter : filters) {
    auto s = createStrategy(name);
    if (s->unsupportedReason(*ctx, filter)) continue;
    const Image in = randomImage(160, 90, static_cast<std::uint32_t>(filter.size() * 101));
    const Image out = runDirect(*s, *ctx, filter, in), ref = referenceOf(in, filter);
    // Only values off the rails count: a saturated output has no rounding to be biased.
    double sum = 0;
    long n = 0;
    for (size_t i = 0; i < ref.pixels.size(); ++i) {
      if (ref.pixels[i] == 0 || ref.pixels[i] == 255) continue;
      sum += int(out.pixels[i]) - int(ref.pixels[i]);
      ++n;
    }
    ASSERT_GT(n, 1000);
    EXPECT_LT(std::abs(sum / static_cast<double>(n)), 0.02)
        << name << " K=" << filter.size() << ": mean(out - reference) = " << sum / static_cast<double>(n);
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, ExactArithmetic, ::testing::ValuesIn(namesWithoutAuto()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace convolab::test::exact_arithmetic
