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
    m_args.upload(ctx, filter, packedWeights(filter));
    m_radius = filter.radius();
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    setArgs(m_kernel, frame.input, frame.output, frame.width, frame.height, m_args.weights, m_radius,
            m_args.offset, m_args.border);
    const cl::NDRange local(16, 8);
    const cl::NDRange global(roundUp(static_cast<size_t>(frame.width), 16),
                             roundUp(static_cast<size_t>(frame.height), 8));
    return {launch2d(ctx, m_kernel, "convolve_naive", global, local, waitFor)};
  }

 private:
  std::string m_options;
  cl::Kernel m_kernel;
  WeightArgs m_args;
  int m_radius = 0;
};

}  // namespace

std::unique_ptr<Strategy> makeNaiveStrategy() {
  return std::make_unique<NaiveStrategy>();
}

}  // namespace convolab
