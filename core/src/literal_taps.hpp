// SPDX-License-Identifier: MIT
// Literal taps: a filter's weights as per-channel floats for kernel generators that bake coefficients into
// the source (codegen, sliding): zero taps, shared weights, rank-1 factors, and their OpenCL literals.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "convolab/filter.hpp"

namespace convolab {

/// Per-channel values (R, G, B) of one tap or factor.
using Rgb = std::array<float, 3>;

/// True when all three channels are exactly zero (the tap or factor is left out of the generated code).
inline bool isZero(const Rgb& w) {
  return w[0] == 0.0f && w[1] == 0.0f && w[2] == 0.0f;
}

/// A float as an OpenCL literal that reads back to the same float ("%.9g" round-trips binary32).
std::string literal(float v);

/// The vector chunk v (of `bx` floats over interleaved R G B) multiplies by: a splat when the channels agree,
/// else the R G B lane pattern.
std::string vectorLiteral(const Rgb& w, int bx, int v);

/// What a literal-coefficient generator needs to know about the filter.
struct LiteralTaps {
  int k = 1;
  bool sharedWeights = false;             ///< all three channels have the same weights: splat literals
  std::vector<Rgb> taps;                  ///< [K·K] weights (matrix / divisor) as floats
  int nonzeroTaps = 0;                    ///< taps with a non-zero weight in some channel
  bool separable = false;                 ///< the generator uses the rank-1 (horizontal × vertical) form
  std::vector<Rgb> rowFactor, colFactor;  ///< [K] each, when separable
  const Rgb& tap(int j, int i) const { return taps[static_cast<size_t>(j * k + i)]; }
};

/// Decides whether the rank-1 form pays: given the non-zero row and column factors and the non-zero taps.
/// Each generator has its own cost model (a fused pass in registers, or through local memory).
using SeparableCost = std::function<bool(int nonzeroRow, int nonzeroCol, int nonzeroTaps)>;

/// The tap table of `filter`; for K ≥ `minSeparableK`, a rank-1 filter (analyzeFilter) gets per-channel row
/// and column factors, where rows and columns that are all zero in the matrix stay exact zeros (and
/// shared weights keep splat factors); `separable` is set when `worthIt` accepts them.
LiteralTaps literalTaps(const FilterSet& filter, int minSeparableK, const SeparableCost& worthIt);

}  // namespace convolab
