// SPDX-License-Identifier: MIT
// Literal taps: tap table, rank-1 factors and literal formatting shared by codegen and sliding.
#include "literal_taps.hpp"

#include <cstdio>

#include "convolab/analysis.hpp"

namespace convolab {

std::string literal(float v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  std::string s(buf);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s + "f";
}

std::string vectorLiteral(const Rgb& w, int bx, int v) {
  if (w[0] == w[1] && w[1] == w[2]) return "(VEC)(" + literal(w[0]) + ")";
  std::string s = "(VEC)(";
  for (int e = 0; e < bx; ++e) s += (e ? ", " : "") + literal(w[static_cast<size_t>((bx * v + e) % 3)]);
  return s + ")";
}

LiteralTaps literalTaps(const FilterSet& filter, int minSeparableK, const SeparableCost& worthIt) {
  LiteralTaps p;
  p.k = filter.size();
  const int k = p.k;
  p.taps.resize(static_cast<size_t>(k * k));
  p.sharedWeights = true;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      Rgb& t = p.taps[static_cast<size_t>(j * k + i)];
      for (int c = 0; c < 3; ++c)
        t[static_cast<size_t>(c)] = static_cast<float>(filter.channel(c).weight(j, i));
      if (!(t[0] == t[1] && t[1] == t[2])) p.sharedWeights = false;
      if (!isZero(t)) ++p.nonzeroTaps;
    }
  if (k < minSeparableK || p.nonzeroTaps == 0) return p;
  const FilterAnalysis a = analyzeFilter(filter);
  if (!a.separable()) return p;
  // Rank-1 factors per channel; rows/columns that are all zero in the matrix are exact zeros (skipped).
  std::vector<Rgb> row(static_cast<size_t>(k), Rgb{}), col(static_cast<size_t>(k), Rgb{});
  for (int c = 0; c < 3; ++c) {
    const auto& ch = a.channels[static_cast<size_t>(c)];
    if (ch.terms.empty()) continue;
    for (int i = 0; i < k; ++i) {
      bool zero = true;
      for (int j = 0; j < k; ++j) zero = zero && filter.channel(c).at(j, i) == 0.0;
      row[static_cast<size_t>(i)][static_cast<size_t>(c)] =
          zero ? 0.0f : static_cast<float>(ch.terms[0].row[static_cast<size_t>(i)]);
    }
    for (int j = 0; j < k; ++j) {
      bool zero = true;
      for (int i = 0; i < k; ++i) zero = zero && filter.channel(c).at(j, i) == 0.0;
      col[static_cast<size_t>(j)][static_cast<size_t>(c)] =
          zero ? 0.0f : static_cast<float>(ch.terms[0].column[static_cast<size_t>(j)]);
    }
  }
  if (p.sharedWeights) {  // the same factors for every channel, so the literals stay splats
    for (auto& r : row) r = {r[0], r[0], r[0]};
    for (auto& c : col) c = {c[0], c[0], c[0]};
  }
  int nzRow = 0, nzCol = 0;
  for (int i = 0; i < k; ++i)
    nzRow += !isZero(row[static_cast<size_t>(i)]), nzCol += !isZero(col[static_cast<size_t>(i)]);
  if (!worthIt(nzRow, nzCol, p.nonzeroTaps)) return p;
  p.separable = true;
  p.rowFactor = std::move(row);
  p.colFactor = std::move(col);
  return p;
}

}  // namespace convolab
