// SPDX-License-Identifier: MIT
// constant: weights in __constant memory, radius and border mode as build options, loops unrolled.
#include "../strategy_support.hpp"
#include "convolab/error.hpp"

namespace convolab {
namespace {

// 32 wide so a warp reads one contiguous run of a row.
constexpr size_t kGroupX = 32, kGroupY = 4;

class ConstantStrategy final : public Strategy {
 public:
  std::string name() const override { return "constant"; }

  std::optional<std::string> unsupportedReason(const Context& ctx, const FilterSet& filter) const override {
    return constantWeightsReason(ctx, filter);
  }

  void prepare(Context& ctx, const FilterSet& filter, int, int) override {
    const std::string options = baseBuildOptions(filter);
    if (options != m_options) {
      m_kernel = cl::Kernel(ctx.buildKernelProgram("constant", options), "convolve_constant");
      m_options = options;
    }
    m_args.upload(ctx, filter, packedWeights(filter));
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    setArgs(m_kernel, frame.input, frame.output, frame.width, frame.height, m_args.weights, m_args.offset,
            m_args.border);
    const cl::NDRange global(roundUp(static_cast<size_t>(frame.width), kGroupX),
                             roundUp(static_cast<size_t>(frame.height), kGroupY));
    return {launch2d(ctx, m_kernel, "convolve_constant", global, cl::NDRange(kGroupX, kGroupY), waitFor)};
  }

 private:
  std::string m_options;
  cl::Kernel m_kernel;
  WeightArgs m_args;
};

}  // namespace

std::unique_ptr<Strategy> makeConstantStrategy() {
  return std::make_unique<ConstantStrategy>();
}

}  // namespace convolab
