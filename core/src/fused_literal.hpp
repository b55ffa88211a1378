// SPDX-License-Identifier: MIT
// FusedLiteral: the source of a fused chain with every step's weights baked in as literals (zero taps left
// out), each step a fixed number of passes over the work-group (kernels/fused_literal.cl).
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "convolab/filter_chain.hpp"
#include "literal_taps.hpp"

namespace convolab {

/// One generated program and how to launch it: work-groups of wx × wy, each writing a tw × th output tile.
struct FusedLiteralPlan {
  std::string source;  ///< the text after common.cl + `kernel`.cl
  std::string options;
  int wx = 0, wy = 0, tw = 0, th = 0;
  std::size_t localBytes = 0;
  std::string kernel = "fused_literal";  ///< the fixed part: fused_literal.cl (CPU style) or fused_gpu.cl
  int groupsZ = 1;                       ///< 3: one work-group per channel of a tile (GPU style)
};

/// A step's literal taps (a filter, or a magnitude's two padded to one K) and offsets, for the generators.
struct FusedStepCode {
  std::vector<LiteralTaps> taps;
  std::vector<cl_float4> offsets;
};
FusedStepCode fusedStepCode(const ChainStep& step);
/// Multiply-adds of one output of the step, over its three channels (zero taps left out).
int fusedTerms(const FusedStepCode& code);

/// The literal program for `steps` (switched-on steps, at least one) in the CPU style, or (`gpu`) the GPU
/// style of fused_gpu.cpp (a chain reaching one pixel in all: this file's one-column GPU shape), or nullopt
/// where it does not pay or fit: the later steps' halo leaves too narrow a tile, the generated code grows too
/// long to compile quickly, or the regions exceed `localLimit` bytes (0: unknown). FusedChain then runs the
/// generic kernel (kernels/fused.cl).
std::optional<FusedLiteralPlan> planFusedLiteral(const std::vector<ChainStep>& steps, bool gpu,
                                                 std::uint64_t localLimit);

}  // namespace convolab
