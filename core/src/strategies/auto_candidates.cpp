// SPDX-License-Identifier: MIT
// auto's candidate rules: see auto_candidates.hpp.
#include "auto_candidates.hpp"

#include <algorithm>
#include <cstdio>

namespace convolab::auto_detail {

CostClass costClassOf(std::string_view s) {
  if (s == "codegen" || s == "sliding") return CostClass::Literal;
  if (s == "constant" || s == "vector" || s == "tiled") return CostClass::Unrolled;
  if (s == "local" || s == "image") return CostClass::Emulated;
  if (s == "separable" || s == "lowrank") return CostClass::Factored;
  if (s == "fft") return CostClass::Transform;
  return CostClass::Generic;  // naive, dynamic, and names the registry does not have
}

bool buildGrowsWithK(std::string_view strategy) {
  const CostClass c = costClassOf(strategy);
  return c == CostClass::Literal || c == CostClass::Unrolled || c == CostClass::Emulated;
}

int maxNonZeroTaps(const FilterSet& filter) {
  int most = 0;
  for (int c = 0; c < kChannels; ++c) {
    const auto& m = filter.channel(c).matrix;
    most =
        std::max(most, static_cast<int>(std::count_if(m.begin(), m.end(), [](double v) { return v != 0; })));
  }
  return most;
}

std::optional<std::string> priorExclusion(std::string_view strategy, const FilterSet& filter,
                                          const CandidateContext& where) {
  const CostClass c = costClassOf(strategy);
  if (c == CostClass::Emulated && where.largeK && where.cpuDevice)
    return "at large K on a CPU device its local-memory tile or image sampler is emulated in software (PoCL, "
           "K = "
           "31: image 270x and local 50x slower than tiled) while fft accepts this filter";
  if (c != CostClass::Literal || !where.cheaperPath) return std::nullopt;
  const int taps = maxNonZeroTaps(filter);
  const int limit = where.cpuDevice ? kMaxLiteralTaps : kMaxLiteralTapsGpu;
  if (taps <= limit) return std::nullopt;
  return "its literal build grows with the taps (" + std::to_string(taps) + " here, over " +
         std::to_string(limit) + (where.cpuDevice ? " on a CPU device" : " on a GPU") +
         "; K = 63 took 151-275 s on PoCL) and a factored or FFT path accepts this filter";
}

std::optional<std::string> hopelessExclusion(std::string_view strategy, bool largeK, double provisionalMs,
                                             std::string_view bestName, double bestMs) {
  if (!largeK || provisionalMs <= 0 || costClassOf(strategy) != CostClass::Generic) return std::nullopt;
  if (bestMs >= kGenericHopelessFraction * provisionalMs) return std::nullopt;
  char line[200];
  std::snprintf(
      line, sizeof line,
      "a generic kernel like dynamic, which took %.3f ms while %s took %.3f ms: it would have to be "
      "%.1fx faster than dynamic",
      provisionalMs, std::string(bestName).c_str(), bestMs, provisionalMs / bestMs);
  return std::string(line);
}

std::vector<std::string> measuringOrder(std::vector<std::string> names, std::string_view provisional) {
  // After the provisional strategy, the classes that usually win (register-tiled, then literal), so that an
  // early swap (measureCandidates' onBetter) comes early; the emulated and generic ones last.
  auto rank = [provisional](const std::string& n) {
    const CostClass c = costClassOf(n);
    if (c == CostClass::Transform || c == CostClass::Factored) return 0;
    if (n == provisional) return 1;
    if (c == CostClass::Unrolled) return 2;
    if (c == CostClass::Literal) return 3;
    return c == CostClass::Emulated ? 4 : 5;
  };
  std::stable_sort(names.begin(), names.end(),
                   [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  return names;
}

}  // namespace convolab::auto_detail
