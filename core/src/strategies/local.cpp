// SPDX-License-Identifier: MIT
// local: work-group tile plus halo staged in __local memory (as uchar4), convolved from there.
#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "../strategy_support.hpp"
#include "convolab/error.hpp"

namespace convolab {
namespace {

struct Shape {
  int groupW, groupH, pitch;  // pitch: tile row length in pixels (see local.cl)
  std::uint64_t localBytes(int radius) const {
    return static_cast<std::uint64_t>(groupH + 2 * radius) * static_cast<std::uint64_t>(pitch) * 4u;
  }
};

/// Tile row pitch: when a warp of 32 spans several rows, offset the rows by GROUP_W banks so that one
/// warp's loads hit 32 different banks.
int tilePitch(int groupW, int radius) {
  const int tileW = groupW + 2 * radius;
  if (groupW >= 32 || 32 % groupW != 0) return tileW;
  int pitch = tileW;
  while (pitch % 32 != groupW % 32) ++pitch;
  return pitch;
}

/// The requested shape, halved (larger side first) until the work-group and its tile fit the device
/// and `maxItems` (the kernel's own limit once built). nullopt when not even 1×1 fits.
std::optional<Shape> fitShape(const DeviceInfo& dev, int radius, int groupW, int groupH,
                              std::size_t maxItems) {
  const std::uint64_t localLimit = dev.localMemBytes ? dev.localMemBytes : UINT64_MAX;
  if (dev.maxWorkGroupSize) maxItems = std::min(maxItems, dev.maxWorkGroupSize);
  for (;;) {
    Shape s{groupW, groupH, tilePitch(groupW, radius)};
    if (s.localBytes(radius) > localLimit) s.pitch = groupW + 2 * radius;  // drop the padding first
    if (static_cast<std::size_t>(groupW * groupH) <= maxItems && s.localBytes(radius) <= localLimit) return s;
    if (groupW == 1 && groupH == 1) return std::nullopt;
    if (groupW >= groupH)
      groupW = std::max(1, groupW / 2);
    else
      groupH = std::max(1, groupH / 2);
  }
}

class LocalStrategy final : public Strategy {
 public:
  std::string name() const override { return "local"; }

  /// Work-group shapes "WxH" worth measuring; the first is the default. All fit 256 work-items.
  std::vector<std::string> tuningVariants(const Context&, const FilterSet&) const override {
    return {"16x8", "32x4", "32x8", "16x16", "64x4", "8x8"};
  }

  /// "WxH" sets the work-group shape for the next prepare(); anything else keeps the current one.
  void setTuningVariant(const std::string& variant) override {
    int w = 0, h = 0;
    char tail = 0;
    if (std::sscanf(variant.c_str(), "%dx%d%c", &w, &h, &tail) == 2 && w >= 1 && h >= 1 && w <= 1024 &&
        h <= 1024) {
      m_requestW = w;
      m_requestH = h;
    }
  }

  std::optional<std::string> unsupportedReason(const Context& ctx, const FilterSet& filter) const override {
    const int r = filter.radius();
    if (!fitShape(ctx.device(), r, m_requestW, m_requestH, SIZE_MAX))
      return "a " + std::to_string(1 + 2 * r) + "x" + std::to_string(1 + 2 * r) +
             " tile needs more than the " + std::to_string(ctx.device().localMemBytes) +
             " bytes of local memory the device has";
    return constantWeightsReason(ctx, filter);
  }

  void prepare(Context& ctx, const FilterSet& filter, int, int) override {
    const int r = filter.radius();
    std::size_t kernelLimit = SIZE_MAX;
    for (;;) {
      const auto shape = fitShape(ctx.device(), r, m_requestW, m_requestH, kernelLimit);
      if (!shape)
        throw Error(ErrorKind::Device,
                    "local: no work-group shape fits this device for K = " + std::to_string(filter.size()));
      const std::string options = baseBuildOptions(filter) + " -DGROUP_W=" + std::to_string(shape->groupW) +
                                  " -DGROUP_H=" + std::to_string(shape->groupH) +
                                  " -DTILE_PITCH=" + std::to_string(shape->pitch);
      if (options != m_options) {
        m_kernel = cl::Kernel(ctx.buildKernelProgram("local", options), "convolve_local");
        m_options = options;
      }
      // The compiled kernel may allow fewer work-items than the device (registers): shrink and rebuild.
      std::size_t allowed = 0;
      try {
        allowed = m_kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(ctx.clDevice());
      } catch (const cl::Error& e) {
        throw ClError("clGetKernelWorkGroupInfo", e.err(), "kernel convolve_local");
      }
      m_shape = *shape;
      if (allowed == 0 || static_cast<std::size_t>(shape->groupW * shape->groupH) <= allowed) break;
      kernelLimit = allowed;
    }
    m_args.upload(ctx, filter, packedWeights(filter));
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    setArgs(m_kernel, frame.input, frame.output, frame.width, frame.height, m_args.weights, m_args.offset,
            m_args.border);
    const auto gw = static_cast<size_t>(m_shape.groupW), gh = static_cast<size_t>(m_shape.groupH);
    const cl::NDRange global(roundUp(static_cast<size_t>(frame.width), gw),
                             roundUp(static_cast<size_t>(frame.height), gh));
    return {launch2d(ctx, m_kernel, "convolve_local", global, cl::NDRange(gw, gh), waitFor)};
  }

 private:
  int m_requestW = 16, m_requestH = 8;  // default shape; setTuningVariant() changes it
  Shape m_shape{};
  std::string m_options;
  cl::Kernel m_kernel;
  WeightArgs m_args;
};

}  // namespace

std::unique_ptr<Strategy> makeLocalStrategy() {
  return std::make_unique<LocalStrategy>();
}

}  // namespace convolab
