// SPDX-License-Identifier: MIT
// MagnitudeStep: both filters padded to one K, weights as arguments, one work-item per pixel.
#include "magnitude_step.hpp"

#include <algorithm>

#include "strategy_support.hpp"

namespace convolab {

void MagnitudeStep::prepare(Context& ctx, const FilterSet& a, const FilterSet& b) {
  const int k = std::max(a.size(), b.size());
  const FilterSet pa = a.resizedTo(k), pb = b.resizedTo(k);  // zero rings: the same sums
  const std::string options = baseBuildOptions(pa);
  if (options != m_options) {
    m_kernel = cl::Kernel(ctx.buildKernelProgram("magnitude", options), "convolve_magnitude");
    m_options = options;
  }
  uploadFloats(ctx, m_weightsA, packedWeights(pa));
  uploadFloats(ctx, m_weightsB, packedWeights(pb));
  m_radius = pa.radius();
  m_offsetA = offsetsOf(pa);
  m_offsetB = offsetsOf(pb);
  m_border = borderValuesOf(pa);
}

std::vector<NamedEvent> MagnitudeStep::enqueue(Context& ctx, const FrameBuffers& frame,
                                               const std::vector<cl::Event>& waitFor) {
  setArgs(m_kernel, frame.input, frame.output, frame.width, frame.height, m_weightsA, m_weightsB, m_radius,
          m_offsetA, m_offsetB, m_border);
  const cl::NDRange local(16, 8);
  const cl::NDRange global(roundUp(static_cast<size_t>(frame.width), 16),
                           roundUp(static_cast<size_t>(frame.height), 8));
  return {launch2d(ctx, m_kernel, "convolve_magnitude", global, local, waitFor)};
}

}  // namespace convolab
