// SPDX-License-Identifier: MIT
// FilterFacts: what the analysis panel says about one channel (DC gain, rank, separable factors, symmetry,
// zero taps) and its frequency response |H(u,v)| by a direct DFT. Qt-free.
#pragma once

#include <vector>

#include "convolab/filter.hpp"

namespace convolab::lab {

struct ChannelFacts {
  double sum = 0;     ///< Σ M[j][i] (the matrix as typed)
  double dcGain = 0;  ///< Σ M[j][i] / divisor: what a flat area is multiplied by
  int rank = 0;
  bool separable = false;  ///< rank ≤ 1
  /// separable: the vertical 1-D factor, smallest non-zero |entry| 1, trimmed of the zero padding around
  /// the filter's support (a 3×3 typed into a 7×7 gives 3 entries), the same number each side so the
  /// centre stays the centre
  std::vector<double> column;
  std::vector<double> row;  ///< separable: the horizontal 1-D factor, normalised and trimmed as `column`
  int columnFirst = 0;      ///< the matrix row of column[0] (entries trimmed above it)
  int rowFirst = 0;         ///< the matrix column of row[0]
  /// weight[j][i] = scale · column[j − columnFirst] · row[i − rowFirst] (divisor folded in); 0 outside
  double scale = 1;
  bool symmetric = false;      ///< M[j][i] == M[K−1−j][K−1−i] (even: zero-phase response)
  bool antisymmetric = false;  ///< M[j][i] == −M[K−1−j][K−1−i] (odd: derivatives, Sobel)
  bool mirrorX = false;        ///< M[j][i] == M[j][K−1−i] (left-right)
  bool mirrorY = false;        ///< M[j][i] == M[K−1−j][i] (top-bottom)
  int zeroTaps = 0;
  int taps = 0;
};

/// Removes as many zeros from each end of `v` as both ends have (so an odd length stays odd and centred):
/// [0, 0, 1, 2, 1, 0, 0] → [1, 2, 1], [0, 1, 2, 0] → [1, 2, 0]. Returns how many were cut from the front.
int trimZeroPadding(std::vector<double>& v);

/// The facts of channel `c` of `filter` (rank and factors from convolab::analyzeFilter's SVD).
ChannelFacts channelFacts(const FilterSet& filter, int c);

/// Frequency response of a channel's weights (divisor applied, offset ignored), zero-padded to n×n: |H(u,v)|
/// row-major with v the row. Centred: index n/2 is frequency 0 (DC), index 0 is −½ cycle/pixel (Nyquist).
std::vector<double> frequencyResponse(const ChannelFilter& channel, int n = 64);

}  // namespace convolab::lab
