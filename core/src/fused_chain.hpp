// SPDX-License-Identifier: MIT
// FusedChain: a whole chain in one launch (kernels/fused.cl), the intermediate images in local memory.
#pragma once

#include <CL/opencl.hpp>
#include <optional>
#include <string>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/filter_chain.hpp"
#include "convolab/strategy.hpp"
#include "fused_literal.hpp"

namespace convolab {

/// Runs every switched-on step of a chain in one kernel launch: a work-group computes each step over its tile
/// plus the halo the later steps need, in local memory, rounding between steps (docs/ARCHITECTURE.md,
/// Chains).
class FusedChain {
 public:
  static constexpr int kTileWidth = 16, kTileHeight = 8;
  /// Why it cannot run `chain` here (no step on; a wrap border after the first step; the regions exceed the
  /// device's local memory), or nullopt.
  static std::optional<std::string> unsupportedReason(const Context& ctx, const FilterChain& chain);
  /// Builds the literal program for the chain (fused_literal.cpp) where it fits, else the generic one (once
  /// per rounded total radius), and uploads what the kernel reads at run time.
  void prepare(Context& ctx, const FilterChain& chain);
  /// frame.input → frame.output in one launch, "convolve_fused".
  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor);

 private:
  /// The literal program (fused_literal.cpp) for `steps`; borders and modes as buffers.
  void prepareLiteral(Context& ctx, const std::vector<ChainStep>& steps);

  std::optional<FusedLiteralPlan> m_literal;  ///< set: the chain runs with baked weights, else fused.cl
  std::string m_source;                       ///< what m_kernel was built from ("fused": the generic kernel)
  std::string m_options;
  cl::Kernel m_kernel;
  cl::Buffer m_weights, m_meta, m_offsets, m_borders;
  int m_steps = 0, m_radius = 0;  ///< switched-on steps, Σ of their radii
};

}  // namespace convolab
