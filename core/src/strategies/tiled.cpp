// tiled: register tiling over a local-memory tile; block and work-group shape are tunable parameters.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "../strategy_support.hpp"
#include "convolab/error.hpp"

namespace convolab {
namespace {

/// Launch and blocking shape of tiled.cl (see the option list at the top of that file).
struct TiledShape {
  int bx = 4;           ///< pixels per work-item in x: 4, 8 or 16
  int by = 8;           ///< rows per work-item
  int wgx = 16;         ///< work-group width (work-items)
  int wgy = 4;          ///< work-group height
  int fillVec = 1;      ///< bytes per fill step: 1, 4, 8 or 16
  bool segLoad = true;  ///< aligned row-segment loads into registers (GPUs) or unaligned window loads (CPUs)
  bool cpuStyle = false;  ///< ROW_LOOP and FAST_STORE (see tiled.cl): what x86 compilers need

  std::string str() const {
    return "b" + std::to_string(bx) + "x" + std::to_string(by) + "-wg" + std::to_string(wgx) + "x" +
           std::to_string(wgy) + "-f" + std::to_string(fillVec) + "-s" + (segLoad ? "1" : "0") + "-c" +
           (cpuStyle ? "1" : "0");
  }

  static std::optional<TiledShape> parse(const std::string& text) {
    TiledShape s;
    int seg = 1, cpu = 0;
    if (std::sscanf(text.c_str(), "b%dx%d-wg%dx%d-f%d-s%d-c%d", &s.bx, &s.by, &s.wgx, &s.wgy, &s.fillVec,
                    &seg, &cpu) != 7)
      return std::nullopt;
    s.segLoad = seg != 0;
    s.cpuStyle = cpu != 0;
    const bool ok = (s.bx == 4 || s.bx == 8 || s.bx == 16) && s.by >= 1 && s.by <= 16 && s.wgx >= 1 &&
                    s.wgy >= 1 && (s.fillVec == 1 || s.fillVec == 4 || s.fillVec == 8 || s.fillVec == 16);
    return ok ? std::optional(s) : std::nullopt;
  }
};

/// Derived sizes of one shape for one filter size K.
struct TiledGeometry {
  TiledShape shape;
  int k = 1;
  int fillBytes = 0, segLen = 0, tstride = 0, trows = 0;

  TiledGeometry(const TiledShape& s, int ksize) : shape(s), k(ksize) {
    const int tw = s.wgx * s.bx;
    trows = s.wgy * s.by + k - 1;
    fillBytes =
        static_cast<int>(roundUp(static_cast<size_t>(3 * (tw + k - 1)), static_cast<size_t>(s.fillVec)));
    segLen = static_cast<int>(roundUp(static_cast<size_t>(3 * s.bx + 3 * (k - 1)), 4));
    // The last work-item's aligned segment may reach a little past the filled part (values it never uses).
    const int segReach = 3 * s.bx * (s.wgx - 1) + segLen;
    tstride = static_cast<int>(roundUp(static_cast<size_t>(std::max(fillBytes, segReach)), 4));
  }
  std::uint64_t localBytes() const { return static_cast<std::uint64_t>(trows) * tstride * sizeof(float); }
  std::uint64_t constantBytes() const {
    return static_cast<std::uint64_t>(k * k * 3 * shape.bx) * sizeof(float);
  }

  std::string options() const {
    std::ostringstream o;
    o << " -DBX=" << shape.bx << " -DBY=" << shape.by << " -DWGX=" << shape.wgx << " -DWGY=" << shape.wgy
      << " -DFILL_VEC=" << shape.fillVec << " -DSEG_LOAD=" << (shape.segLoad ? 1 : 0)
      << " -DROW_LOOP=" << (shape.cpuStyle ? 1 : 0) << " -DTSTRIDE=" << tstride
      << " -DFILL_BYTES=" << fillBytes << " -DSEGLEN=" << segLen
      << " -DFAST_STORE=" << (shape.cpuStyle ? 1 : 0);
    return o.str();
  }
};

/// Shrinks `shape` until its tile fits the device (local memory, work-group size); nullopt when nothing fits.
std::optional<TiledGeometry> fitShape(TiledShape s, int k, const DeviceInfo& dev, std::size_t maxGroup) {
  for (;;) {
    TiledGeometry g(s, k);
    const bool groupOk = static_cast<std::size_t>(s.wgx * s.wgy) <= maxGroup;
    if (groupOk && g.localBytes() <= dev.localMemBytes) return g;
    // Shrink the work-group's height first (keeps rows coalesced), then the block height, then the width.
    if (s.wgy > 1)
      s.wgy = (s.wgy + 1) / 2;
    else if (s.by > 1)
      s.by = (s.by + 1) / 2;
    else if (s.wgx > 1)
      s.wgx = (s.wgx + 1) / 2;
    else
      return std::nullopt;
  }
}

/// Weights in the layout the kernel multiplies by: [K·K taps][3 chunks][bx], lane e of chunk v holding
/// channel (bx·v + e) % 3; each vector starts at a multiple of bx floats (aligned loads on CPUs).
std::vector<float> patternWeights(const FilterSet& filter, int bx) {
  const int k = filter.size();
  std::vector<float> w;
  w.reserve(static_cast<size_t>(k * k * 3 * bx));
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i)
      for (int v = 0; v < 3; ++v)
        for (int e = 0; e < bx; ++e)
          w.push_back(static_cast<float>(filter.channel((bx * v + e) % 3).weight(j, i)));
  return w;
}

TiledShape defaultShape(const DeviceInfo& dev) {
  if (dev.isGpu)
    return {4, 8, 16, 4, 1, true, false};  // 4×8 block: 12-float lane stride, conflict-free vload4
  return {16, 4, 8, 8, 16, false, true};   // CPUs: one 16-wide SIMD vector per chunk
}

class TiledStrategy final : public Strategy {
 public:
  std::string name() const override { return "tiled"; }

  std::vector<std::string> tuningVariants(const Context& ctx, const FilterSet&) const override {
    const TiledShape d = defaultShape(ctx.device());
    std::vector<TiledShape> v{d};
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

  void setTuningVariant(const std::string& variant) override {
    if (auto s = TiledShape::parse(variant)) {
      m_requested = *s;
      m_hasRequested = true;
    }
  }

  std::optional<std::string> unsupportedReason(const Context& ctx, const FilterSet& filter) const override {
    const DeviceInfo& dev = ctx.device();
    const auto g = fitShape(requestedShape(dev), filter.size(), dev, dev.maxWorkGroupSize);
    if (!g)
      return "the smallest tile for K=" + std::to_string(filter.size()) + " does not fit in " +
             std::to_string(dev.localMemBytes) + " bytes of local memory";
    if (g->constantBytes() > dev.constantBufferBytes) return "the weights do not fit in constant memory";
    return std::nullopt;
  }

  void prepare(Context& ctx, const FilterSet& filter, int, int) override {
    const DeviceInfo& dev = ctx.device();
    std::size_t maxGroup = dev.maxWorkGroupSize;
    for (;;) {
      const auto g = fitShape(requestedShape(dev), filter.size(), dev, maxGroup);
      if (!g)
        throw Error(ErrorKind::Device,
                    "tiled: no tile shape fits this device for K=" + std::to_string(filter.size()));
      const std::string options = baseBuildOptions(filter) + g->options();
      if (options != m_options) {
        m_kernel = cl::Kernel(ctx.buildKernelProgram("tiled", options), "convolve_tiled");
        m_options = options;
        m_geometry = *g;
        // The compiled kernel may allow fewer work-items than the device (registers): shrink and rebuild.
        const auto kernelMax = m_kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(ctx.clDevice());
        if (static_cast<std::size_t>(g->shape.wgx * g->shape.wgy) > kernelMax) {
          maxGroup = kernelMax;
          m_options.clear();
          continue;
        }
      }
      break;
    }
    uploadFloats(ctx, m_weights, patternWeights(filter, m_geometry.shape.bx));
    m_offset = offsetsOf(filter);
    m_border = borderValuesOf(filter);
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    const TiledShape& s = m_geometry.shape;
    m_kernel.setArg(0, frame.input);
    m_kernel.setArg(1, frame.output);
    m_kernel.setArg(2, frame.width);
    m_kernel.setArg(3, frame.height);
    m_kernel.setArg(4, m_weights);
    m_kernel.setArg(5, m_offset);
    m_kernel.setArg(6, m_border);
    const size_t tilesX =
        roundUp(static_cast<size_t>(frame.width), static_cast<size_t>(s.wgx * s.bx)) / (s.wgx * s.bx);
    const size_t tilesY =
        roundUp(static_cast<size_t>(frame.height), static_cast<size_t>(s.wgy * s.by)) / (s.wgy * s.by);
    const cl::NDRange local(static_cast<size_t>(s.wgx), static_cast<size_t>(s.wgy));
    const cl::NDRange global(tilesX * s.wgx, tilesY * s.wgy);
    return {launch2d(ctx, m_kernel, "convolve_tiled", global, local, waitFor)};
  }

 private:
  TiledShape requestedShape(const DeviceInfo& dev) const {
    return m_hasRequested ? m_requested : defaultShape(dev);
  }

  TiledShape m_requested;
  bool m_hasRequested = false;
  TiledGeometry m_geometry{TiledShape{}, 1};
  std::string m_options;
  cl::Kernel m_kernel;
  cl::Buffer m_weights;
  cl_float4 m_offset{}, m_border{};
};

}  // namespace

std::unique_ptr<Strategy> makeTiledStrategy() {
  return std::make_unique<TiledStrategy>();
}

}  // namespace convolab
