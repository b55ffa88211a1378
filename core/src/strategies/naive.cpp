// SPDX-License-Identifier: MIT
// naive: one work-item per pixel; weights in global memory, radius at run time. The baseline.
#include "../strategy_support.hpp"
#include "convolab/error.hpp"

namespace convolab {
namespace {

class NaiveStrategy final : public Strategy {
 public:
  std::string name() const override { return "naive"; }

  std::optional<std::string> unsupportedReason(const Context&, const FilterSet&) const override {
    return std::nullopt;  // runs everywhere: the last resort of the fallback chain
  }

  void prepare(Context& ctx, const FilterSet& filter, int, int) override {
    const std::string options = baseBuildOptions(filter);
    if (options != m_options) {
      m_kernel = cl::Kernel(ctx.buildKernelProgram("naive", options), "convolve_naive");
      m_options = options;
    }
    uploadFloats(ctx, m_weights, packedWeights(filter));
    m_radius = filter.radius();
    m_offset = offsetsOf(filter);
    m_border = borderValuesOf(filter);
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    setArgs(m_kernel, frame.input, frame.output, frame.width, frame.height, m_weights, m_radius, m_offset,
            m_border);
    const cl::NDRange local(16, 8);
    const cl::NDRange global(roundUp(static_cast<size_t>(frame.width), 16),
                             roundUp(static_cast<size_t>(frame.height), 8));
    return {launch2d(ctx, m_kernel, "convolve_naive", global, local, waitFor)};
  }

 private:
  std::string m_options;
  cl::Kernel m_kernel;
  cl::Buffer m_weights;
  int m_radius = 0;
  cl_float4 m_offset{}, m_border{};
};

}  // namespace

std::unique_ptr<Strategy> makeNaiveStrategy() {
  return std::make_unique<NaiveStrategy>();
}

}  // namespace convolab
