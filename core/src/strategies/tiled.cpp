// SPDX-License-Identifier: MIT
// tiled: register tiling over a local-memory tile; block and work-group shape are tunable parameters.
#include "../strategy_support.hpp"
#include "../tile_shape.hpp"
#include "convolab/error.hpp"

namespace convolab {
namespace {

TileShape defaultTileShape(const DeviceInfo& dev) {
  return defaultTiledShape(dev);
}

class TiledStrategy final : public Strategy {
 public:
  std::string name() const override { return "tiled"; }

  std::vector<std::string> tuningVariants(const Context& ctx, const FilterSet&) const override {
    const TileShape d = defaultTileShape(ctx.device());
    std::vector<TileShape> v{d};
    if (ctx.device().isGpu) {
      v.push_back({4, 8, 32, 2, 1, true, false});
      v.push_back({8, 4, 16, 4, 1, true, false});
      v.push_back({4, 4, 16, 8, 1, true, false});
      v.push_back({8, 2, 32, 4, 1, true, false});
    } else {
      v.push_back({16, 4, 4, 8, 16, false, true});
      v.push_back({8, 4, 8, 8, 8, false, true});
      v.push_back({16, 2, 8, 16, 16, false, true});
    }
    std::vector<std::string> names;
    for (const auto& s : v) names.push_back(s.str());
    return names;
  }

  void setTuningVariant(const std::string& variant) override { m_variant = variant; }

  std::optional<std::string> unsupportedReason(const Context& ctx, const FilterSet& filter) const override {
    const DeviceInfo& dev = ctx.device();
    const auto g = fitTile(requestedShape(dev), filter.size(), dev, dev.maxWorkGroupSize);
    if (!g)
      return "the smallest tile for K=" + std::to_string(filter.size()) + " does not fit in " +
             std::to_string(dev.localMemBytes) + " bytes of local memory";
    if (g->patternWeightBytes() > dev.constantBufferBytes) return "the weights do not fit in constant memory";
    return std::nullopt;
  }

  void prepare(Context& ctx, const FilterSet& filter, int, int) override {
    const DeviceInfo& dev = ctx.device();
    std::size_t maxGroup = dev.maxWorkGroupSize;
    for (;;) {
      const auto g = fitTile(requestedShape(dev), filter.size(), dev, maxGroup);
      if (!g)
        throw Error(ErrorKind::Device,
                    "tiled: no tile shape fits this device for K=" + std::to_string(filter.size()));
      const std::string options = baseBuildOptions(filter) + g->buildOptions();
      if (options != m_options) {
        m_kernel = cl::Kernel(ctx.buildKernelProgram("tiled", options), "convolve_tiled");
        m_options = options;
        m_geometry = *g;
        if (const auto limit = workGroupRefit(m_kernel, ctx.clDevice(), g->shape.groupSize())) {
          maxGroup = *limit;  // fewer work-items than the device allows (registers): shrink and rebuild
          m_options.clear();
          continue;
        }
      }
      break;
    }
    m_args.upload(ctx, filter, chunkPatternWeights(filter, m_geometry.shape.bx));
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    setArgs(m_kernel, frame.input, frame.output, frame.width, frame.height, m_args.weights, m_args.offset,
            m_args.border);
    const cl::NDRange global = m_geometry.globalRange(frame.width, frame.height);
    const cl::NDRange local = m_geometry.localRange();
    return {launch2d(ctx, m_kernel, "convolve_tiled", global, local, waitFor)};
  }

 private:
  TileShape requestedShape(const DeviceInfo& dev) const {
    const TileShape d = defaultTileShape(dev);
    return TileShape::parse(m_variant, d).value_or(d);
  }

  std::string m_variant;  ///< TileShape grammar; anything else keeps the default shape
  TileGeometry m_geometry;
  std::string m_options;
  cl::Kernel m_kernel;
  WeightArgs m_args;
};

}  // namespace

std::unique_ptr<Strategy> makeTiledStrategy() {
  return std::make_unique<TiledStrategy>();
}

}  // namespace convolab
