// FilterFacts: per-channel sums, symmetry, SVD factors and a direct 2-D DFT of the zero-padded matrix.
#include "filter_facts.hpp"

#include <cmath>
#include <complex>
#include <numbers>

#include "convolab/analysis.hpp"

namespace convolab::lab {

ChannelFacts channelFacts(const FilterSet& filter, int c) {
  const ChannelFilter& f = filter.channel(c);
  const ChannelAnalysis a = analyzeFilter(filter).channels[static_cast<size_t>(c)];
  ChannelFacts facts;
  const int k = f.size;
  facts.taps = k * k;
  for (double v : f.matrix) facts.sum += v;
  facts.dcGain = facts.sum / f.divisor;
  facts.rank = a.rank;
  facts.zeroTaps = a.zeroTaps;
  facts.separable = a.rank <= 1;
  if (a.rank == 1) {
    facts.column = a.terms[0].column;
    facts.row = a.terms[0].row;
    // SVD factors carry an arbitrary common sign: show the row with a positive largest-magnitude entry.
    double big = 0;
    for (double v : facts.row)
      if (std::abs(v) > std::abs(big)) big = v;
    if (big < 0) {
      for (double& v : facts.row) v = -v;
      for (double& v : facts.column) v = -v;
    }
  }
  bool sym = true, anti = true, mx = true, my = true, anyNonZero = false;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      const double v = f.at(j, i);
      anyNonZero = anyNonZero || v != 0;
      sym = sym && v == f.at(k - 1 - j, k - 1 - i);
      anti = anti && v == -f.at(k - 1 - j, k - 1 - i);
      mx = mx && v == f.at(j, k - 1 - i);
      my = my && v == f.at(k - 1 - j, i);
    }
  facts.symmetric = sym;
  facts.antisymmetric = anti && anyNonZero;
  facts.mirrorX = mx;
  facts.mirrorY = my;
  return facts;
}

std::vector<double> frequencyResponse(const ChannelFilter& f, int n) {
  const int k = f.size;
  using C = std::complex<double>;
  // Twiddles for centred frequencies: index u ↦ frequency (u − n/2)/n cycles per pixel.
  std::vector<C> tw(static_cast<size_t>(n) * k);
  for (int u = 0; u < n; ++u)
    for (int i = 0; i < k; ++i)
      tw[static_cast<size_t>(u) * k + i] = std::polar(1.0, -2.0 * std::numbers::pi * (u - n / 2) * i / n);
  // Rows first (K×n), then columns: n·n·K + n·K·K multiplies instead of n²K².
  std::vector<C> rows(static_cast<size_t>(k) * n);
  for (int j = 0; j < k; ++j)
    for (int u = 0; u < n; ++u) {
      C s = 0;
      for (int i = 0; i < k; ++i) s += f.weight(j, i) * tw[static_cast<size_t>(u) * k + i];
      rows[static_cast<size_t>(j) * n + u] = s;
    }
  std::vector<double> mag(static_cast<size_t>(n) * n);
  for (int v = 0; v < n; ++v)
    for (int u = 0; u < n; ++u) {
      C s = 0;
      for (int j = 0; j < k; ++j)
        s += rows[static_cast<size_t>(j) * n + u] * tw[static_cast<size_t>(v) * k + j];
      mag[static_cast<size_t>(v) * n + u] = std::abs(s);
    }
  return mag;
}

}  // namespace convolab::lab
