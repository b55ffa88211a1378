// SPDX-License-Identifier: MIT
// median, nearest-rank percentile and SampleStats: the one definition the bench, auto and the app's stats
// use.
#include "convolab/percentile.hpp"

#include <gtest/gtest.h>

namespace convolab {
namespace {

TEST(Percentile, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(median({5, 1, 3}), 3);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);  // mean of the two middle values
  EXPECT_DOUBLE_EQ(median({7}), 7);
  EXPECT_DOUBLE_EQ(median({}), 0);
}

TEST(Percentile, NearestRank) {
  std::vector<double> v;
  for (int i = 20; i >= 1; --i) v.push_back(i);  // 1..20, unsorted
  EXPECT_DOUBLE_EQ(percentile(v, 0.95), 19);     // ceil(0.95 * 20) = 19th smallest
  EXPECT_DOUBLE_EQ(percentile(v, 1.0), 20);
  EXPECT_DOUBLE_EQ(percentile(v, 0.01), 1);
  EXPECT_DOUBLE_EQ(percentile({3, 1, 2}, 0.95), 3);  // ceil(2.85) = 3rd
  EXPECT_DOUBLE_EQ(percentile({}, 0.95), 0);
}

TEST(Percentile, SampleStatsOfOneSample) {
  const SampleStats s = SampleStats::of({10, 2, 8, 4, 6});
  EXPECT_DOUBLE_EQ(s.median, 6);
  EXPECT_DOUBLE_EQ(s.p95, 10);
  EXPECT_DOUBLE_EQ(s.mean, 6);
  EXPECT_DOUBLE_EQ(s.min, 2);
  const SampleStats empty = SampleStats::of({});
  EXPECT_DOUBLE_EQ(empty.median + empty.p95 + empty.mean + empty.min, 0);
}

}  // namespace
}  // namespace convolab
