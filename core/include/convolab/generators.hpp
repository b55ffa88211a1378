// SPDX-License-Identifier: MIT
// Kernel generators: Gaussian, disk (bokeh), motion blur, Laplacian of Gaussian, Gabor as K×K matrices.
#pragma once

#include <string>
#include <vector>

#include "convolab/filter.hpp"

namespace convolab {

/// Which generator and its parameters: enough to make the matrix again (saved beside it in a filter file,
/// docs/FILTER_FORMAT.md "generator"). Unused parameters stay 0.
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

/// The generator kinds, in the order a user interface lists them.
const std::vector<std::string>& generatorKinds();

/// The K×K channel the generator makes: blurs (gaussian, disk, motion) sum to 1 (divisor 1); log sums to 0
/// (its mean is removed) and gabor has zero mean, both scaled so Σ|w| = 2 (a unit edge gives about ±255 at
/// most). Throws Error(BadInput) naming the parameter when one is out of range or the kind is unknown.
ChannelFilter generateKernel(const GeneratorParams& params);

}  // namespace convolab
