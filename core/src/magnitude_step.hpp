// SPDX-License-Identifier: MIT
// MagnitudeStep: runs a chain's magnitude step (kernels/magnitude.cl) on device buffers.
#pragma once

#include <CL/opencl.hpp>
#include <string>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/filter.hpp"
#include "convolab/strategy.hpp"

namespace convolab {

/// The magnitude of two filters on one input (DESIGN §1), one launch. Not a registry strategy: a strategy
/// convolves one FilterSet, and a magnitude needs two (docs/ARCHITECTURE.md, Chains).
class MagnitudeStep {
 public:
  /// Builds (once per K and border) and uploads both filters' weights, padded to the larger K.
  void prepare(Context& ctx, const FilterSet& a, const FilterSet& b);
  /// Enqueues frame.input → frame.output after `waitFor`; one event, "convolve_magnitude".
  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor);

 private:
  std::string m_options;
  cl::Kernel m_kernel;
  cl::Buffer m_weightsA, m_weightsB;
  int m_radius = 0;
  cl_float4 m_offsetA{}, m_offsetB{}, m_border{};
};

}  // namespace convolab
