// SPDX-License-Identifier: MIT
// dynamic: K, border mode and weights as kernel arguments, so one program per device runs every filter and a
// new filter never waits for a compile. auto's provisional strategy while it measures (kernels/dynamic.cl).
#include <string>

#include "../strategy_support.hpp"
#include "../tile_shape.hpp"

namespace convolab {
namespace {

/// Pixels per work-item: one 16-float SIMD vector per chunk on CPUs, 4 on GPUs (12-byte loads per lane).
int pixelsPerItem(const DeviceInfo& dev) {
  return dev.isGpu ? 4 : 16;
}

class DynamicStrategy final : public Strategy {
 public:
  std::string name() const override { return "dynamic"; }

  std::optional<std::string> unsupportedReason(const Context&, const FilterSet&) const override {
    return std::nullopt;  // global memory only, any K and border
  }

  void prepare(Context& ctx, const FilterSet& filter, int, int) override {
    m_vx = pixelsPerItem(ctx.device());
    // Nothing of the filter in the options: the program is built once per device (and kept by the pool).
    const std::string options = "-DBORDER_MODE=BORDER_REFLECT101 -DVX=" + std::to_string(m_vx) +
                                " -DFAST_STORE=" + (ctx.device().isGpu ? "0" : "1");
    if (options != m_options) {
      m_kernel = cl::Kernel(ctx.buildKernelProgram("dynamic", options), "convolve_dynamic");
      m_options = options;
    }
    uploadFloats(ctx, m_weights, chunkPatternWeights(filter, m_vx));
    m_ksize = filter.size();
    m_border = static_cast<int>(filter.border());
    m_offset = offsetsOf(filter);
    m_borderValue = borderValuesOf(filter);
  }

  bool preparesWithoutBuild(const Context&, const FilterSet&) const override {
    return m_kernel() != nullptr;  // built once: every filter is arguments
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    setArgs(m_kernel, frame.input, frame.output, frame.width, frame.height, m_weights, m_ksize, m_border,
            m_offset, m_borderValue);
    const std::size_t itemsX = (static_cast<std::size_t>(frame.width) + m_vx - 1) / m_vx;
    const cl::NDRange local(16, 4);
    const cl::NDRange global(roundUp(itemsX, 16), roundUp(static_cast<std::size_t>(frame.height), 4));
    return {launch2d(ctx, m_kernel, "convolve_dynamic", global, local, waitFor)};
  }

 private:
  int m_vx = 16;
  std::string m_options;
  cl::Kernel m_kernel;
  cl::Buffer m_weights;
  int m_ksize = 1;
  int m_border = 0;
  cl_float4 m_offset{}, m_borderValue{};
};

}  // namespace

std::unique_ptr<Strategy> makeDynamicStrategy() {
  return std::make_unique<DynamicStrategy>();
}

}  // namespace convolab
