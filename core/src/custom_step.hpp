// SPDX-License-Identifier: MIT
// CustomStep: runs a chain's custom OpenCL step (the user's pixel_value inside kernels/custom.cl).
#pragma once

#include <CL/opencl.hpp>
#include <string>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/custom_kernel.hpp"
#include "convolab/filter_chain.hpp"
#include "convolab/strategy.hpp"

namespace convolab {

/// Builds `kernel` wrapped (wrapCustomKernelSource) with the border of `border`. Throws CustomKernelError
/// with the compiler's messages when it does not build. `warnings` (if given) receives the warnings of a
/// build from source (a program loaded from the cache has none to give).
cl::Program buildCustomProgram(Context& ctx, const CustomKernel& kernel, const FilterSet& border,
                               std::vector<KernelDiagnostic>* warnings = nullptr);

/// A custom step, one launch ("convolve_custom"). Not a registry strategy: it convolves nothing the
/// registry's strategies could, and has no CPU reference (docs/ARCHITECTURE.md, Chains).
class CustomStep {
 public:
  /// Builds when the code or the border mode changed; parameter values and border values are arguments.
  void prepare(Context& ctx, const ChainStep& step);
  /// The warnings of the last build from source.
  const std::vector<KernelDiagnostic>& warnings() const { return m_warnings; }
  /// Enqueues frame.input → frame.output after `waitFor`, with `time` in seconds.
  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor, double time);

 private:
  std::string m_source, m_options;
  cl::Kernel m_kernel;
  cl_float8 m_params{};
  cl_float4 m_border{};
  std::vector<KernelDiagnostic> m_warnings;
};

}  // namespace convolab
