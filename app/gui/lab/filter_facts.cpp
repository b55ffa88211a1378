// SPDX-License-Identifier: MIT
// FilterFacts: per-channel sums, symmetry, SVD factors and a direct 2-D DFT of the zero-padded matrix.
#include "filter_facts.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "convolab/analysis.hpp"

namespace convolab::lab {

int trimZeroPadding(std::vector<double>& v) {
  std::size_t lead = 0, trail = 0;
  while (lead < v.size() && v[lead] == 0) ++lead;
  if (lead == v.size()) return 0;  // all zero: nothing to trim to
  while (v[v.size() - 1 - trail] == 0) ++trail;
  const std::size_t cut = std::min(lead, trail);
  v.erase(v.end() - static_cast<std::ptrdiff_t>(cut), v.end());
  v.erase(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(cut));
  return static_cast<int>(cut);
}

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
    // SVD factors carry an arbitrary scale and sign: show each with its smallest non-zero magnitude 1
    // (binomial and Sobel factors become integers) and the row's largest entry positive.
    auto normalise = [](std::vector<double>& v) {
      double big = 0, smallest = 0;
      for (double x : v)
        if (std::abs(x) >= std::abs(big)) big = x;  // ties: the last, so [-1, 0, 1] stays as written
      for (double x : v)
        if (std::abs(x) > 1e-9 * std::abs(big) && (smallest == 0 || std::abs(x) < smallest))
          smallest = std::abs(x);
      if (smallest == 0) return 1.0;
      const double s = big < 0 ? -smallest : smallest;
      for (double& x : v) x = std::abs(x / s) < 1e-12 ? 0.0 : x / s;
      return s;
    };
    const double cs = normalise(facts.column), rs = normalise(facts.row);
    facts.scale = cs * rs;
    facts.columnFirst = trimZeroPadding(facts.column);
    facts.rowFirst = trimZeroPadding(facts.row);
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
