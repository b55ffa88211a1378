// SPDX-License-Identifier: MIT
// FusedLiteral: the source of a fused chain with every step's weights baked in as literals (zero taps left
// out), each step a fixed number of passes over the work-group (kernels/fused_literal.cl).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "convolab/filter_chain.hpp"

namespace convolab {

/// One generated program and how to launch it: work-groups of wx × wy, each writing a tw × th output tile.
struct FusedLiteralPlan {
  std::string source;  ///< the text after common.cl + fused_literal.cl
  std::string options;
  int wx = 0, wy = 0, tw = 0, th = 0;
  std::size_t localBytes = 0;
};

/// The literal program for `steps` (switched-on steps, at least one) in a CPU- or GPU-style shape, or nullopt
/// where it does not pay or fit: the later steps' halo leaves too narrow a tile, the generated code grows
/// too long to compile quickly, or the regions exceed `localLimit` bytes (0: unknown). FusedChain then runs
/// the generic kernel (kernels/fused.cl).
std::optional<FusedLiteralPlan> planFusedLiteral(const std::vector<ChainStep>& steps, bool gpu,
                                                 std::uint64_t localLimit);

}  // namespace convolab
