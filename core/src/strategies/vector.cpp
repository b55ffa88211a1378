// vector: several consecutive pixels per work-item with vector loads/stores, straight from global memory.
#include <cstdio>
#include <sstream>

#include "../strategy_support.hpp"
#include "convolab/error.hpp"

namespace convolab {
namespace {

/// Block and launch shape of vector.cl (see the option list at the top of that file).
struct VectorShape {
  int vx = 4;             ///< pixels per work-item: 4, 8 or 16
  int vy = 8;             ///< rows per work-item
  int wgx = 32;           ///< work-group width (work-items)
  int wgy = 4;            ///< work-group height
  bool cpuStyle = false;  ///< ROW_LOOP and FAST_STORE (see vector.cl): what x86 compilers need

  std::string str() const {
    return "v" + std::to_string(vx) + "x" + std::to_string(vy) + "-wg" + std::to_string(wgx) + "x" +
           std::to_string(wgy) + "-c" + (cpuStyle ? "1" : "0");
  }

  static std::optional<VectorShape> parse(const std::string& text) {
    VectorShape s;
    int cpu = 0;
    if (std::sscanf(text.c_str(), "v%dx%d-wg%dx%d-c%d", &s.vx, &s.vy, &s.wgx, &s.wgy, &cpu) != 5)
      return std::nullopt;
    s.cpuStyle = cpu != 0;
    const bool ok =
        (s.vx == 4 || s.vx == 8 || s.vx == 16) && s.vy >= 1 && s.vy <= 16 && s.wgx >= 1 && s.wgy >= 1;
    return ok ? std::optional(s) : std::nullopt;
  }
};

VectorShape defaultShape(const DeviceInfo& dev) {
  if (dev.isGpu) return {4, 8, 32, 4, false};  // 12-byte lanes keep warps' loads close together
  return {16, 4, 8, 8, true};                  // CPUs: one 16-wide SIMD vector per chunk
}

/// Weights in the layout the kernel multiplies by: [K·K taps][3 chunks][vx], lane e of chunk v holding
/// channel (vx·v + e) % 3; each vector starts at a multiple of vx floats (aligned loads on CPUs).
std::vector<float> patternWeights(const FilterSet& filter, int vx) {
  const int k = filter.size();
  std::vector<float> w;
  w.reserve(static_cast<size_t>(k * k * 3 * vx));
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i)
      for (int v = 0; v < 3; ++v)
        for (int e = 0; e < vx; ++e)
          w.push_back(static_cast<float>(filter.channel((vx * v + e) % 3).weight(j, i)));
  return w;
}

class VectorStrategy final : public Strategy {
 public:
  std::string name() const override { return "vector"; }

  std::vector<std::string> tuningVariants(const Context& ctx, const FilterSet&) const override {
    std::vector<VectorShape> v{defaultShape(ctx.device())};
    if (ctx.device().isGpu) {
      v.push_back({8, 4, 32, 4, false});
      v.push_back({4, 4, 64, 2, false});
      v.push_back({4, 8, 16, 8, false});
    } else {
      v.push_back({8, 4, 8, 8, true});
      v.push_back({16, 2, 4, 16, true});
    }
    std::vector<std::string> names;
    for (const auto& s : v) names.push_back(s.str());
    return names;
  }

  void setTuningVariant(const std::string& variant) override {
    if (auto s = VectorShape::parse(variant)) {
      m_requested = *s;
      m_hasRequested = true;
    }
  }

  std::optional<std::string> unsupportedReason(const Context& ctx, const FilterSet& filter) const override {
    const VectorShape s = shapeFor(ctx.device());
    const std::uint64_t weightBytes =
        static_cast<std::uint64_t>(filter.size() * filter.size() * 3 * s.vx) * 4;
    if (weightBytes > ctx.device().constantBufferBytes) return "the weights do not fit in constant memory";
    return std::nullopt;
  }

  void prepare(Context& ctx, const FilterSet& filter, int, int) override {
    const VectorShape s = shapeFor(ctx.device());
    std::ostringstream o;
    o << baseBuildOptions(filter) << " -DVX=" << s.vx << " -DVY=" << s.vy
      << " -DROW_LOOP=" << (s.cpuStyle ? 1 : 0) << " -DFAST_STORE=" << (s.cpuStyle ? 1 : 0);
    if (o.str() != m_options) {  // coefficients alone never rebuild: they are a buffer
      m_kernel = cl::Kernel(ctx.buildKernelProgram("vector", o.str()), "convolve_vector");
      m_options = o.str();
    }
    m_shape = s;
    // The compiled kernel may allow fewer work-items per group than asked (registers).
    const auto kernelMax = m_kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(ctx.clDevice());
    while (static_cast<std::size_t>(m_shape.wgx * m_shape.wgy) > kernelMax && m_shape.wgx * m_shape.wgy > 1) {
      if (m_shape.wgy > 1)
        m_shape.wgy = (m_shape.wgy + 1) / 2;
      else
        m_shape.wgx = (m_shape.wgx + 1) / 2;
    }
    uploadFloats(ctx, m_weights, patternWeights(filter, s.vx));
    m_offset = offsetsOf(filter);
    m_border = borderValuesOf(filter);
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    m_kernel.setArg(0, frame.input);
    m_kernel.setArg(1, frame.output);
    m_kernel.setArg(2, frame.width);
    m_kernel.setArg(3, frame.height);
    m_kernel.setArg(4, m_weights);
    m_kernel.setArg(5, m_offset);
    m_kernel.setArg(6, m_border);
    const size_t itemsX = (static_cast<size_t>(frame.width) + m_shape.vx - 1) / m_shape.vx;
    const size_t itemsY = (static_cast<size_t>(frame.height) + m_shape.vy - 1) / m_shape.vy;
    const cl::NDRange local(static_cast<size_t>(m_shape.wgx), static_cast<size_t>(m_shape.wgy));
    const cl::NDRange global(roundUp(itemsX, m_shape.wgx), roundUp(itemsY, m_shape.wgy));
    return {launch2d(ctx, m_kernel, "convolve_vector", global, local, waitFor)};
  }

 private:
  VectorShape shapeFor(const DeviceInfo& dev) const {
    VectorShape s = m_hasRequested ? m_requested : defaultShape(dev);
    while (static_cast<std::size_t>(s.wgx * s.wgy) > dev.maxWorkGroupSize) {
      if (s.wgy > 1)
        s.wgy = (s.wgy + 1) / 2;
      else
        s.wgx = (s.wgx + 1) / 2;
    }
    return s;
  }

  VectorShape m_requested;
  bool m_hasRequested = false;
  VectorShape m_shape;
  std::string m_options;
  cl::Kernel m_kernel;
  cl::Buffer m_weights;
  cl_float4 m_offset{}, m_border{};
};

}  // namespace

std::unique_ptr<Strategy> makeVectorStrategy() {
  return std::make_unique<VectorStrategy>();
}

}  // namespace convolab
