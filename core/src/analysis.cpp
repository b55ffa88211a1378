// SPDX-License-Identifier: MIT
// Filter analysis by SVD (Eigen): rank, separable terms, zero taps, identical channels.
#include "convolab/analysis.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>

namespace convolab {

int FilterAnalysis::maxRank() const {
  int r = 0;
  for (const auto& c : channels) r = std::max(r, c.rank);
  return r;
}

namespace {
ChannelAnalysis analyzeChannel(const ChannelFilter& f) {
  ChannelAnalysis a;
  const int k = f.size;
  Eigen::MatrixXd w(k, k);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      w(j, i) = f.weight(j, i);
      if (f.at(j, i) == 0.0) ++a.zeroTaps;
    }
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(w, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const auto& s = svd.singularValues();
  const double largest = s.size() ? s(0) : 0.0;
  for (int t = 0; t < s.size(); ++t) {
    if (largest == 0.0 || s(t) <= kRankTolerance * largest) break;
    SeparableTerm term;
    const double root = std::sqrt(s(t));
    for (int j = 0; j < k; ++j) term.column.push_back(svd.matrixU()(j, t) * root);
    for (int i = 0; i < k; ++i) term.row.push_back(svd.matrixV()(i, t) * root);
    a.terms.push_back(std::move(term));
  }
  a.rank = static_cast<int>(a.terms.size());
  return a;
}
}  // namespace

FilterAnalysis analyzeFilter(const FilterSet& filter) {
  FilterAnalysis result;
  for (int c = 0; c < kChannels; ++c)
    result.channels[static_cast<size_t>(c)] = analyzeChannel(filter.channel(c));
  bool same = true;
  for (int c = 1; c < kChannels && same; ++c) {
    const ChannelFilter &a = filter.channel(0), &b = filter.channel(c);
    same = a.offset == b.offset;
    for (int j = 0; j < a.size && same; ++j)
      for (int i = 0; i < a.size && same; ++i) same = a.weight(j, i) == b.weight(j, i);
  }
  result.identicalChannels = same;
  return result;
}

}  // namespace convolab
