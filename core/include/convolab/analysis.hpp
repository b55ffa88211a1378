// SPDX-License-Identifier: MIT
// Filter analysis: the facts (rank, separable factors, zero taps, identical channels) strategies use.
#pragma once

#include <array>
#include <vector>

#include "convolab/filter.hpp"

namespace convolab {

/// One separable term: weight[j][i] ≈ column[j] · row[i] (divisor already folded in).
struct SeparableTerm {
  std::vector<double> column;  ///< K vertical weights
  std::vector<double> row;     ///< K horizontal weights
};

struct ChannelAnalysis {
  int rank = 0;                      ///< numerical rank of weight matrix (SVD, relative tolerance)
  std::vector<SeparableTerm> terms;  ///< `rank` terms whose sum reproduces the weights
  int zeroTaps = 0;                  ///< taps exactly 0
};

struct FilterAnalysis {
  std::array<ChannelAnalysis, 3> channels;
  bool identicalChannels = false;  ///< same weights and offset for R, G and B
  int maxRank() const;
  bool separable() const { return maxRank() <= 1; }
};

/// Relative singular-value tolerance below which a term is dropped (error stays far below ½ LSB).
inline constexpr double kRankTolerance = 1e-7;

FilterAnalysis analyzeFilter(const FilterSet& filter);

}  // namespace convolab
