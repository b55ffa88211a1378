// SPDX-License-Identifier: MIT
// literal_taps: the tap table, rank-1 factors with exact zero rows/columns, the caller's cost rule and
// threshold, and literals that read back to the same float (shared by codegen and sliding).
#include <gtest/gtest.h>

#include <cstdlib>

#include "literal_taps.hpp"

namespace convolab::test {
namespace {

/// Outer product col × row in every channel (channel c scaled by `scale[c]`), divisor 1.
FilterSet outerProduct(const std::vector<double>& col, const std::vector<double>& row,
                       std::array<double, 3> scale) {
  const int k = static_cast<int>(col.size());
  std::array<ChannelFilter, 3> ch;
  for (int c = 0; c < 3; ++c) {
    auto& f = ch[static_cast<size_t>(c)];
    f.size = k;
    f.matrix.resize(static_cast<size_t>(k * k));
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i)
        f.matrix[static_cast<size_t>(j * k + i)] =
            scale[static_cast<size_t>(c)] * col[static_cast<size_t>(j)] * row[static_cast<size_t>(i)];
    f.divisor = 1.0;
  }
  return FilterSet::make(ch, BorderMode::Reflect101, {0, 0, 0}, "outer");
}

const SeparableCost kAlways = [](int, int, int) { return true; };

TEST(LiteralTaps, LiteralsReadBackToTheSameFloat) {
  for (float v : {0.1f, -1.75f, 3.0f, 1e-30f, 123456789.0f, 0.333333343f}) {
    const std::string s = literal(v);
    ASSERT_EQ(s.back(), 'f') << s;
    EXPECT_EQ(std::strtof(s.c_str(), nullptr), v) << s;
    EXPECT_NE(s.find_first_of(".e"), std::string::npos) << s;  // never an int literal
  }
  EXPECT_EQ(vectorLiteral({0.5f, 0.5f, 0.5f}, 4, 1), "(VEC)(0.5f)");
  // Lanes follow R G B across chunks: chunk 1 of width 4 starts at lane 4, which is G.
  EXPECT_EQ(vectorLiteral({1.0f, 2.0f, 3.0f}, 4, 1), "(VEC)(2.0f, 3.0f, 1.0f, 2.0f)");
}

TEST(LiteralTaps, TapTableZeroTapsAndSharedWeights) {
  const FilterSet shared = outerProduct({0, 1, 2}, {1, 0, -1}, {1, 1, 1});
  const LiteralTaps p = literalTaps(shared, 99, kAlways);  // threshold above K: no factors
  EXPECT_EQ(p.k, 3);
  EXPECT_TRUE(p.sharedWeights);
  EXPECT_EQ(p.nonzeroTaps, 4);  // rows 1, 2 × columns 0, 2
  EXPECT_EQ(p.tap(2, 0), (Rgb{2, 2, 2}));
  EXPECT_TRUE(isZero(p.tap(0, 1)));
  EXPECT_FALSE(p.separable);
  EXPECT_FALSE(literalTaps(outerProduct({0, 1, 2}, {1, 0, -1}, {1, 2, 1}), 99, kAlways).sharedWeights);
}

TEST(LiteralTaps, RankOneFactorsKeepZeroRowsAndColumnsExact) {
  const FilterSet f = outerProduct({0, 1, 2, 1, 0}, {1, 0, 3, 0, 1}, {1, 2, -1});
  const LiteralTaps p = literalTaps(f, 3, kAlways);
  ASSERT_TRUE(p.separable);
  ASSERT_EQ(p.rowFactor.size(), 5u);
  for (int i : {1, 3}) EXPECT_TRUE(isZero(p.rowFactor[static_cast<size_t>(i)])) << i;
  for (int j : {0, 4}) EXPECT_TRUE(isZero(p.colFactor[static_cast<size_t>(j)])) << j;
  // The factors rebuild every tap (per channel) within float rounding.
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 5; ++i)
      for (size_t c = 0; c < 3; ++c)
        EXPECT_NEAR(p.rowFactor[static_cast<size_t>(i)][c] * p.colFactor[static_cast<size_t>(j)][c],
                    p.tap(j, i)[c], 1e-5)
            << j << "," << i << "," << c;
}

TEST(LiteralTaps, TheCallersThresholdAndCostRuleDecide) {
  const FilterSet f3 = outerProduct({1, 2, 1}, {1, 2, 1}, {1, 1, 1});  // 9 taps, 3 + 3 factors
  EXPECT_TRUE(literalTaps(f3, 3, kAlways).separable);
  EXPECT_FALSE(literalTaps(f3, 5, kAlways).separable);  // codegen's threshold: K ≥ 5
  int seenRow = -1, seenCol = -1, seenTaps = -1;
  const LiteralTaps refused = literalTaps(f3, 3, [&](int r, int c, int t) {
    seenRow = r, seenCol = c, seenTaps = t;
    return false;
  });
  EXPECT_FALSE(refused.separable);
  EXPECT_TRUE(refused.rowFactor.empty());
  EXPECT_EQ(seenRow, 3);
  EXPECT_EQ(seenCol, 3);
  EXPECT_EQ(seenTaps, 9);
  // Not rank 1: the rule is never asked.
  std::array<ChannelFilter, 3> ch;
  for (auto& c : ch) c = {3, {1, 0, 0, 0, 1, 0, 0, 0, 1}, 1.0, 0.0};
  bool asked = false;
  EXPECT_FALSE(
      literalTaps(FilterSet::make(ch, BorderMode::Reflect101, {0, 0, 0}, "diag"), 3, [&](int, int, int) {
        return asked = true;
      }).separable);
  EXPECT_FALSE(asked);
}

}  // namespace
}  // namespace convolab::test
