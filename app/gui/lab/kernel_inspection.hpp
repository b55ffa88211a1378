// SPDX-License-Identifier: MIT
// KernelInspection: builds and runs one frame of a strategy in a Context of its own and records what it
// built (exact source, options, build time, cache) and launched (global and local sizes). Qt-free.
#pragma once

#include <string>
#include <vector>

#include <memory>

#include "convolab/context.hpp"
#include "convolab/filter.hpp"
#include "convolab/filter_chain.hpp"
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

/// One part of a program's source: common.cl, a fragment its file included, the generated kernel.
struct SourceSection {
  std::string name;   ///< "common.cl", "chunk.cl"
  int firstLine = 0;  ///< 1-based, the fragment's first line (for an included one, its "// ---- x.cl" line)
  int lastLine = 0;   ///< inclusive
  std::string includedBy;  ///< "tiled.cl"; empty for common.cl (prepended to every program)
};

/// Where things are in a program's source, so the Kernel Source view can open at the kernel itself rather
/// than at line 1 of common.cl, and list what was pasted in above it.
struct SourceOutline {
  std::vector<SourceSection> sections;  ///< common.cl first, then each included fragment, in source order
  int kernelLine = 0;                   ///< 1-based line of the `__kernel` shown first; 0: none found
  std::string kernelName;               ///< its function name
};

/// Outlines `source` (a BuildInfo::source): common.cl's lines (it is prepended unmarked: matched against the
/// embedded text), the fragments between expandKernelIncludes' "// ---- x.cl (included by y.cl)" and
/// "// ---- back in y.cl" lines, and the `__kernel` to open at: the first one of `launched` whose name
/// starts with "convolve" (image's pack_rgba runs first), else the first launched one, else the first in
/// the source.
SourceOutline outlineKernelSource(const std::string& source, const std::vector<std::string>& launched = {});

/// Prepares `active` (its name with its variant; what auto chose runs directly, plain auto measures) for a
/// width×height frame on `ctx` and enqueues it once: the program that produced the live frame, so the generic
/// kernel (dynamic) where `active.note` says it stands in, and auto's choice on the filter trimmed to its
/// support.
KernelInspection inspectKernels(Context& ctx, const StrategyId& active, const FilterSet& filter, int width,
                                int height);

/// The same for a chain of several steps: an engine on `ctx` made to fuse it (ChainFusion::Fused) prepares
/// and runs one frame, so the builds are the fused kernel's (kernels/fused.cl) where the chain fuses, else
/// each step's (naive). `requested` reads "fused (chain of N steps)".
KernelInspection inspectChainKernels(const std::shared_ptr<Context>& ctx, const FilterChain& chain, int width,
                                     int height);

}  // namespace convolab::lab
