// SPDX-License-Identifier: MIT
// Filter analysis: ranks and separable terms that reproduce the weights.
#include <gtest/gtest.h>

#include "convolab/analysis.hpp"
#include "test_support.hpp"

namespace convolab {
namespace {

double maxTermError(const ChannelFilter& f, const ChannelAnalysis& a) {
  double err = 0;
  for (int j = 0; j < f.size; ++j)
    for (int i = 0; i < f.size; ++i) {
      double sum = 0;
      for (const auto& t : a.terms) sum += t.column[static_cast<size_t>(j)] * t.row[static_cast<size_t>(i)];
      err = std::max(err, std::abs(sum - f.weight(j, i)));
    }
  return err;
}

TEST(Analysis, GaussianIsRankOne) {
  ChannelFilter g;
  g.size = 5;
  const double b[] = {1, 4, 6, 4, 1};
  g.matrix.clear();
  for (double y : b)
    for (double x : b) g.matrix.push_back(x * y);
  g.divisor = 256;
  const FilterAnalysis a = analyzeFilter(FilterSet::uniform(g));
  EXPECT_TRUE(a.separable());
  EXPECT_TRUE(a.identicalChannels);
  EXPECT_EQ(a.channels[0].rank, 1);
  EXPECT_LT(maxTermError(g, a.channels[0]), 1e-12);
}

TEST(Analysis, DenseRandomIsFullRankAndTermsReconstruct) {
  const FilterSet f = test::randomFilter(7, BorderMode::Reflect101, 3);
  const FilterAnalysis a = analyzeFilter(f);
  EXPECT_FALSE(a.identicalChannels);
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(a.channels[static_cast<size_t>(c)].rank, 7);
    EXPECT_LT(maxTermError(f.channel(c), a.channels[static_cast<size_t>(c)]), 1e-9);
  }
}

TEST(Analysis, CountsZeroTapsAndZeroMatrix) {
  ChannelFilter sobel{3, {-1, 0, 1, -2, 0, 2, -1, 0, 1}, 1, 0};
  const FilterAnalysis a = analyzeFilter(FilterSet::uniform(sobel));
  EXPECT_EQ(a.channels[0].zeroTaps, 3);
  EXPECT_EQ(a.channels[0].rank, 1);
  ChannelFilter zero{3, std::vector<double>(9, 0.0), 1, 0};
  EXPECT_EQ(analyzeFilter(FilterSet::uniform(zero)).channels[0].rank, 0);
}

}  // namespace
}  // namespace convolab
