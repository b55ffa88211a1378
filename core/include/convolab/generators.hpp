// SPDX-License-Identifier: MIT
// Kernel generators: Gaussian, disk (bokeh), motion blur, Laplacian of Gaussian, Gabor as K×K matrices.
#pragma once

#include <string>
#include <vector>

#include "convolab/filter.hpp"
#include "convolab/generator_params.hpp"

namespace convolab {

/// The generator kinds, in the order a user interface lists them.
const std::vector<std::string>& generatorKinds();

/// The K×K channel the generator makes: blurs (gaussian, disk, motion) sum to 1 (divisor 1); log sums to 0
/// (its mean is removed) and gabor has zero mean, both scaled so Σ|w| = 2 (a unit edge gives about ±255 at
/// most). Throws Error(BadInput) naming the parameter when one is out of range or the kind is unknown.
ChannelFilter generateKernel(const GeneratorParams& params);

}  // namespace convolab
