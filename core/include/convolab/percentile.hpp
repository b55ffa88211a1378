// SPDX-License-Identifier: MIT
// Sample statistics shared by the bench, auto's measurements and the app's stats: median, nearest-rank p95.
#pragma once

#include <vector>

namespace convolab {

/// The median of a sample: its middle value, or the mean of the two middle values for an even count; 0 for
/// an empty sample.
double median(std::vector<double> values);

/// Nearest-rank percentile, `p` in (0, 1]: the ceil(p·n)-th smallest value (p = 0.95: the value at or above
/// 95 % of the sample); 0 for an empty sample.
double percentile(std::vector<double> values, double p);

/// Median, nearest-rank p95, mean and minimum of one sample (all 0 when it is empty).
struct SampleStats {
  double median = 0, p95 = 0, mean = 0, min = 0;
  /// The statistics of `values` (sorted once).
  static SampleStats of(std::vector<double> values);
};

}  // namespace convolab
