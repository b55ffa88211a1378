// SPDX-License-Identifier: MIT
// vector: several consecutive pixels per work-item with vector loads/stores, straight from global memory.
#include <sstream>

#include "../strategy_support.hpp"
#include "../tile_shape.hpp"
#include "convolab/error.hpp"

namespace convolab {
namespace {

/// vector.cl's shape as a TileShape: bx×by pixels per work-item (VX, VY), no local tile (fillVec and segLoad
/// unused).
TileShape defaultVectorShape(const DeviceInfo& dev) {
  if (dev.isGpu) return {4, 8, 32, 4, 1, true, false};  // 12-byte lanes keep warps' loads close together
  return {16, 4, 8, 8, 1, true, true};                  // CPUs: one 16-wide SIMD vector per chunk
}

class VectorStrategy final : public Strategy {
 public:
  std::string name() const override { return "vector"; }

  std::vector<std::string> tuningVariants(const Context& ctx, const FilterSet&) const override {
    std::vector<TileShape> v{defaultVectorShape(ctx.device())};
    if (ctx.device().isGpu) {
      v.push_back({8, 4, 32, 4, 1, true, false});
      v.push_back({4, 4, 64, 2, 1, true, false});
      v.push_back({4, 8, 16, 8, 1, true, false});
    } else {
      v.push_back({8, 4, 8, 8, 1, true, true});
      v.push_back({16, 2, 4, 16, 1, true, true});
    }
    std::vector<std::string> names;
    for (const auto& s : v) names.push_back(s.str());
    return names;
  }

  void setTuningVariant(const std::string& variant) override { m_variant = variant; }

  std::optional<std::string> unsupportedReason(const Context& ctx, const FilterSet& filter) const override {
    const std::uint64_t weightBytes =
        TileGeometry(shapeFor(ctx.device()), filter.size()).patternWeightBytes();
    if (weightBytes > ctx.device().constantBufferBytes) return "the weights do not fit in constant memory";
    return std::nullopt;
  }

  void prepare(Context& ctx, const FilterSet& filter, int, int) override {
    const TileShape s = shapeFor(ctx.device());
    std::ostringstream o;
    o << baseBuildOptions(filter) << " -DVX=" << s.bx << " -DVY=" << s.by
      << " -DROW_LOOP=" << (s.cpuStyle ? 1 : 0) << " -DFAST_STORE=" << (s.cpuStyle ? 1 : 0);
    if (o.str() != m_options) {  // coefficients alone never rebuild: they are a buffer
      m_kernel = cl::Kernel(ctx.buildKernelProgram("vector", o.str()), "convolve_vector");
      m_options = o.str();
    }
    m_shape = s;
    // No reqd_work_group_size here: a kernel allowing fewer work-items per group only shrinks the launch.
    if (const auto limit = workGroupRefit(m_kernel, ctx.clDevice(), s.groupSize()))
      m_shape = s.shrunkToGroup(*limit);
    m_args.upload(ctx, filter, chunkPatternWeights(filter, s.bx));
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    setArgs(m_kernel, frame.input, frame.output, frame.width, frame.height, m_args.weights, m_args.offset,
            m_args.border);
    const size_t itemsX = (static_cast<size_t>(frame.width) + m_shape.bx - 1) / m_shape.bx;
    const size_t itemsY = (static_cast<size_t>(frame.height) + m_shape.by - 1) / m_shape.by;
    const cl::NDRange local(static_cast<size_t>(m_shape.wgx), static_cast<size_t>(m_shape.wgy));
    const cl::NDRange global(roundUp(itemsX, m_shape.wgx), roundUp(itemsY, m_shape.wgy));
    return {launch2d(ctx, m_kernel, "convolve_vector", global, local, waitFor)};
  }

 private:
  TileShape shapeFor(const DeviceInfo& dev) const {
    const TileShape d = defaultVectorShape(dev);
    return TileShape::parse(m_variant, d).value_or(d).shrunkToGroup(dev.maxWorkGroupSize);
  }

  std::string m_variant;  ///< TileShape grammar; anything else keeps the default shape
  TileShape m_shape;
  std::string m_options;
  cl::Kernel m_kernel;
  WeightArgs m_args;
};

}  // namespace

std::unique_ptr<Strategy> makeVectorStrategy() {
  return std::make_unique<VectorStrategy>();
}

}  // namespace convolab
