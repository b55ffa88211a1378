// SPDX-License-Identifier: MIT
// Sample statistics: median, nearest-rank percentiles, mean and minimum.
#include "convolab/percentile.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace convolab {
namespace {

double sortedMedian(const std::vector<double>& v) {
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double sortedPercentile(const std::vector<double>& v, double p) {
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
  return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

}  // namespace

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return sortedMedian(values);
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return sortedPercentile(values, p);
}

SampleStats SampleStats::of(std::vector<double> values) {
  SampleStats s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.median = sortedMedian(values);
  s.p95 = sortedPercentile(values, 0.95);
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  s.min = values.front();
  return s;
}

}  // namespace convolab
