// SPDX-License-Identifier: MIT
// GeneratorParams: which kernel generator made a filter, and with what (generators.hpp makes the matrix).
#pragma once

#include <string>

namespace convolab {

/// Which generator and its parameters: enough to make the matrix again (saved beside it in a filter file,
/// docs/FILTER_FORMAT.md "Generators"). Unused parameters stay 0.
struct GeneratorParams {
  std::string kind;   ///< "gaussian", "disk", "motion", "log" or "gabor"
  int size = 0;       ///< K, odd, 1..kMaxFilterSize
  double sigma = 0;   ///< gaussian, log, gabor: standard deviation in pixels (> 0)
  double radius = 0;  ///< disk: radius in pixels (> 0)
  double length = 0;  ///< motion: length of the streak in pixels (≥ 1)
  double angle = 0;   ///< motion: degrees, counter-clockwise from +x; gabor: θ in degrees
  double lambda = 0;  ///< gabor: wavelength in pixels (> 0)
  bool operator==(const GeneratorParams&) const = default;
};

}  // namespace convolab
