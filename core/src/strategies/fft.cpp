// SPDX-License-Identifier: MIT
// fft: pad with the border rule; VkFFT's convolution (transform, multiply by the kernel's spectrum, transform
// back); crop.
// Its cost hardly grows with K: the strategy for large kernels (docs/ARCHITECTURE.md, "The fft path").
#include <memory>

#include "../fft_plan.hpp"
#include "../strategy_support.hpp"
#include "convolab/error.hpp"

namespace convolab {
namespace {

constexpr size_t kPlaneGroupX = 32,
                 kPlaneGroupY = 8;  // pad, crop and taps: a warp's row of 32 floats a plane
/// The smallest K fft takes. Below, the direct strategies win on the devices measured (docs/BENCHMARKS.md),
/// and declining keeps auto's measurement and the K ≤ 15 sweeps from planning transforms for nothing.
constexpr int kFftMinSize = 17;

class FftStrategy final : public Strategy {
 public:
  std::string name() const override { return "fft"; }

  std::optional<std::string> unsupportedReason(const Context&, const FilterSet& filter) const override {
    if (!fftAvailable()) return "this build has no VkFFT (libvkfft-dev)";
    if (filter.size() < kFftMinSize)
      return "K < " + std::to_string(kFftMinSize) +
             ": a direct strategy is cheaper (fft is for large kernels)";
    return std::nullopt;
  }

  bool preparesWithoutBuild(const Context&, const FilterSet& next) const override {
    return m_plan && next.size() == m_k && next.border() == m_borderMode;  // taps re-transformed, no build
  }

  void prepare(Context& ctx, const FilterSet& filter, int width, int height) override {
    const std::string options = baseBuildOptions(filter);
    if (options != m_options) {
      const cl::Program program = ctx.buildKernelProgram("fft", options);
      m_pad = cl::Kernel(program, "fft_pad");
      m_taps = cl::Kernel(program, "fft_taps");
      m_crop = cl::Kernel(program, "fft_crop");
      m_options = options;
    }
    // GPUs: sides of 2^a·3^b (1080p, K = 31: 2048 × 1152, 151 µs on the H200 against 162 µs for 1960 × 1120);
    // CPUs keep the smallest sizes with factors up to 7 (PoCL was measured with them).
    const int primes = ctx.device().isGpu ? 3 : 7;
    const int nx = fftFriendlySize(width + filter.size() - 1, primes),
              ny = fftFriendlySize(height + filter.size() - 1, primes);
    if (!m_plan || m_plan->nx() != nx || m_plan->ny() != ny) allocate(ctx, nx, ny);
    m_k = filter.size();
    m_borderMode = filter.border();
    m_offset = offsetsOf(filter);
    m_border = borderValuesOf(filter);
    transformTaps(ctx, filter);
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    const int rs = m_plan->rowFloats(), ny = m_plan->ny();
    std::vector<NamedEvent> events;
    setArgs(m_pad, frame.input, m_planes, frame.width, frame.height, rs, ny, m_border);
    events.push_back(
        launch2d(ctx, m_pad, "fft_pad", cover(rs, ny), cl::NDRange(kPlaneGroupX, kPlaneGroupY), waitFor));
    // The queue is in order: VkFFT's launches and ours follow one another.
    m_plan->convolve(ctx.queue(), m_planes, m_kernelSpectrum, events);
    setArgs(m_crop, m_planes, frame.output, frame.width, frame.height, rs, ny, m_offset);
    events.push_back(launch2d(ctx, m_crop, "fft_crop", cover(frame.width, frame.height),
                              cl::NDRange(kPlaneGroupX, kPlaneGroupY), {}));
    return events;
  }

 private:
  static cl::NDRange cover(int w, int h) {
    return {roundUp(static_cast<size_t>(w), kPlaneGroupX), roundUp(static_cast<size_t>(h), kPlaneGroupY)};
  }

  /// Plan and buffers for nx × ny planes; refuses (Error, the engine falls back) what the device cannot hold.
  void allocate(Context& ctx, int nx, int ny) {
    m_plan.reset();
    const std::uint64_t planes = FftPlan::planeBytes(nx, ny, 3);
    const DeviceInfo& dev = ctx.device();
    const std::uint64_t need = 2 * planes;  // the frame's planes and the kernel's spectrum
    if ((dev.maxAllocBytes && planes > dev.maxAllocBytes) ||
        (dev.globalMemBytes && need > dev.globalMemBytes / 2))
      throw Error(ErrorKind::Device, "fft: " + std::to_string(nx) + "x" + std::to_string(ny) +
                                         " planes need " + std::to_string(need >> 20) +
                                         " MiB; the device has too little memory");
    try {
      m_planes = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, planes);
      m_kernelSpectrum = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, planes);
    } catch (const cl::Error& e) {
      throw ClError("clCreateBuffer", e.err(),
                    "fft planes of " + std::to_string(nx) + "x" + std::to_string(ny));
    }
    m_plan = FftPlan::shared(ctx, nx, ny, 3);
  }

  /// The kernel's spectrum, once per filter change: taps into zeroed planes, forward transform in place.
  void transformTaps(Context& ctx, const FilterSet& filter) {
    const int nx = m_plan->nx(), ny = m_plan->ny();
    uploadFloats(ctx, m_weights, packedWeights(filter));
    std::vector<NamedEvent> events;
    try {
      ctx.queue().enqueueFillBuffer(m_kernelSpectrum, 0.0f, 0, m_plan->planeBytes());
      setArgs(m_taps, m_weights, m_kernelSpectrum, nx, m_plan->rowFloats(), ny,
              static_cast<float>(1.0 / double(nx)));
      events.push_back(launch2d(ctx, m_taps, "fft_taps", cover(filter.size(), filter.size()),
                                cl::NDRange(kPlaneGroupX, kPlaneGroupY), {}));
      m_plan->transformKernel(ctx.queue(), m_kernelSpectrum, events, "fft_kernel");
      ctx.queue().finish();
    } catch (const cl::Error& e) {
      throw ClError(e.what(), e.err(), "fft: transforming the filter's taps");
    }
  }

  std::string m_options;
  cl::Kernel m_pad, m_taps, m_crop;
  std::shared_ptr<FftPlan> m_plan;
  cl::Buffer m_planes, m_kernelSpectrum, m_weights;
  int m_k = 0;
  BorderMode m_borderMode = BorderMode::Reflect101;
  cl_float4 m_offset{}, m_border{};
};

}  // namespace

std::unique_ptr<Strategy> makeFftStrategy() {
  return std::make_unique<FftStrategy>();
}

}  // namespace convolab
