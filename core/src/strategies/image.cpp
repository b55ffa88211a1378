// SPDX-License-Identifier: MIT
// image: frame packed into an RGBA8 image2d_t and read through a sampler (texture cache).
#include "../strategy_support.hpp"
#include "convolab/error.hpp"

namespace convolab {
namespace {

constexpr size_t kImageGroupX = 32, kImageGroupY = 4;

class ImageStrategy final : public Strategy {
 public:
  std::string name() const override { return "image"; }

  std::optional<std::string> unsupportedReason(const Context& ctx, const FilterSet& filter) const override {
    if (!ctx.device().imageSupport) return "device has no image support";
    return constantWeightsReason(ctx, filter);
  }

  void prepare(Context& ctx, const FilterSet& filter, int width, int height) override {
    const std::string options = baseBuildOptions(filter);
    if (options != m_options) {
      const cl::Program program = ctx.buildKernelProgram("image", options);
      m_pack = cl::Kernel(program, "pack_rgba");
      m_convolve = cl::Kernel(program, "convolve_image");
      m_options = options;
    }
    ensureImage(ctx, width, height);
    m_args.upload(ctx, filter, packedWeights(filter));
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    ensureImage(ctx, frame.width, frame.height);  // prepare() normally did this already
    const cl::NDRange global(roundUp(static_cast<size_t>(frame.width), kImageGroupX),
                             roundUp(static_cast<size_t>(frame.height), kImageGroupY));
    const cl::NDRange local(kImageGroupX, kImageGroupY);
    setArgs(m_pack, frame.input, m_image, frame.width, frame.height);
    std::vector<NamedEvent> events{launch2d(ctx, m_pack, "pack_rgba", global, local, waitFor)};
    setArgs(m_convolve, m_image, frame.output, frame.width, frame.height, m_args.weights, m_args.offset,
            m_args.border);
    events.push_back(launch2d(ctx, m_convolve, "convolve_image", global, local, {events.back().event}));
    return events;
  }

 private:
  /// (Re)creates the RGBA8 image when the frame size changes.
  void ensureImage(Context& ctx, int width, int height) {
    if (width == m_width && height == m_height && m_image()) return;
    const DeviceInfo& dev = ctx.device();
    // unsupportedReason() cannot see the frame size, so a frame the image cannot hold is refused here
    // (the engine then falls back, as for any failed prepare).
    if (static_cast<std::size_t>(width) > dev.image2dMaxWidth ||
        static_cast<std::size_t>(height) > dev.image2dMaxHeight)
      throw Error(ErrorKind::Device, "image: a " + std::to_string(width) + "x" + std::to_string(height) +
                                         " frame exceeds the device's image limit of " +
                                         std::to_string(dev.image2dMaxWidth) + "x" +
                                         std::to_string(dev.image2dMaxHeight));
    try {
      m_image = cl::Image2D(ctx.context(), CL_MEM_READ_WRITE, cl::ImageFormat(CL_RGBA, CL_UNSIGNED_INT8),
                            static_cast<size_t>(width), static_cast<size_t>(height));
    } catch (const cl::Error& e) {
      throw ClError("clCreateImage", e.err(),
                    "RGBA8 image of " + std::to_string(width) + "x" + std::to_string(height));
    }
    m_width = width;
    m_height = height;
  }

  std::string m_options;
  cl::Kernel m_pack, m_convolve;
  cl::Image2D m_image;
  int m_width = 0, m_height = 0;
  WeightArgs m_args;
};

}  // namespace

std::unique_ptr<Strategy> makeImageStrategy() {
  return std::make_unique<ImageStrategy>();
}

}  // namespace convolab
