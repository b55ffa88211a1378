// SPDX-License-Identifier: MIT
// KernelInspection: builds and runs one frame of a strategy in a Context of its own and records what it
// built (exact source, options, build time, cache) and launched (global and local sizes). Qt-free.
#pragma once

#include <string>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/filter.hpp"
#include "convolab/strategy_id.hpp"

namespace convolab::lab {

struct KernelInspection {
  StrategyId requested;  ///< what was asked: tiled, auto:tiled/16x8 (runs tiled/16x8), auto (measures)
  std::string strategy;  ///< the strategy built: "tiled"
  std::string variant;   ///< its tuning variant ("" = default)
  StrategyId active;     ///< Strategy::activeId() after prepare (empty name: not prepared)
  int width = 0, height = 0;
  std::vector<BuildInfo> builds;  ///< the programs the strategy's prepare built, in order
  std::vector<LaunchInfo> launches;
  std::string error;  ///< non-empty when it could not be built or run
};

/// Prepares `active` (its name with its variant; what auto chose runs directly, plain auto measures) for a
/// width×height frame on `ctx` and enqueues it once.
KernelInspection inspectKernels(Context& ctx, const StrategyId& active, const FilterSet& filter, int width,
                                int height);

}  // namespace convolab::lab
