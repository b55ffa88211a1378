// KernelInspection: builds and runs one frame of a strategy in a Context of its own and records what it
// built (exact source, options, build time, cache) and launched (global and local sizes). Qt-free.
#pragma once

#include <string>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/filter.hpp"

namespace convolab::lab {

struct KernelInspection {
  std::string requested;  ///< what was asked: "tiled", "auto:tiled/16x8", "auto"
  std::string strategy;   ///< the strategy built: "tiled"
  std::string variant;    ///< its tuning variant ("" = default)
  std::string active;     ///< activeVariant() after prepare
  int width = 0, height = 0;
  std::vector<BuildInfo> builds;  ///< the programs the strategy's prepare built, in order
  std::vector<LaunchInfo> launches;
  std::string error;  ///< non-empty when it could not be built or run
};

/// Splits "auto:tiled/16x8" into {"tiled", "16x8"}, "tiled/16x8" into {"tiled", "16x8"}, "naive" into
/// {"naive", ""}; plain "auto" stays {"auto", ""}.
std::pair<std::string, std::string> splitActiveName(const std::string& active);

/// Prepares `active` (see splitActiveName) for a width×height frame on `ctx` and enqueues it once.
KernelInspection inspectKernels(Context& ctx, const std::string& active, const FilterSet& filter, int width,
                                int height);

}  // namespace convolab::lab
