// SPDX-License-Identifier: MIT
// FftPlan: a batched 2-D real-to-complex FFT on the context's device, through VkFFT's OpenCL backend.
#pragma once

#include <CL/opencl.hpp>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/strategy.hpp"

namespace convolab {

/// Whether this build carries VkFFT (the header libvkfft-dev installs); without it the fft strategy declines.
bool fftAvailable();

/// The smallest n' ≥ n that is even and has no prime factor above `largestPrime` (7: sizes VkFFT transforms
/// in one radix pass each (2, 3, 5, 7), never through Bluestein's detour; 3: a little larger, smoother sizes,
/// faster on the H200: docs/BENCHMARKS.md). CONVOLAB_FFT_TUNING's "primes=N" overrides it.
int fftFriendlySize(int n, int largestPrime = 7);

/// A plan for the circular convolution of `channels` real planes of nx × ny floats with one kernel each, in
/// place, through VkFFT's convolution mode: the rows' real-to-complex transform, then one launch per column
/// group that transforms, multiplies by the kernel's spectrum and transforms back, then the rows' inverse
/// (three launches a frame; the separate forward, multiply and inverse took seven and 25 % longer on the
/// H200). Layout of planes and kernels alike: [channel][ny][rowFloats()], rowFloats() = 2·(nx/2 + 1) (room
/// for the half spectrum of a row). The result is nx × the circular convolution (VkFFT normalises the column
/// axis it convolves along, not the rows): scale the kernel's taps by 1/nx.
/// Layout::Columns is the other plan: the rows are transformed by the fft strategy's own kernels
/// (kernels/fft_rows.cl), and VkFFT convolves only along the columns, one 1-D convolution (transform,
/// multiply, inverse: one launch) for each of the channels · (nx/2 + 1) row frequencies, whose ny values are
/// contiguous: layout [channel][nx/2 + 1][ny] complex, the same bytes as the planes'. VkFFT normalises that
/// inverse, so the result is the rows' own scale (fft_rows.cl).
/// Building it compiles VkFFT's kernels for this size on the device (once per size; the driver may cache).
class FftPlan {
 public:
  enum class Layout { Planes, Columns };
  FftPlan(Context& ctx, int nx, int ny, int channels, Layout layout = Layout::Planes);
  ~FftPlan();
  /// The plan of this size on ctx's device and OpenCL context, shared with its other users in this process:
  /// building one compiles several programs (seconds on PoCL), and auto's measurement, the live strategy and
  /// a re-prepared one ask for the same size. The last kPoolSize sizes are kept.
  static std::shared_ptr<FftPlan> shared(Context& ctx, int nx, int ny, int channels,
                                         Layout layout = Layout::Planes);
  static constexpr std::size_t kPoolSize = 4;
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;

  int nx() const { return m_nx; }
  int ny() const { return m_ny; }
  /// Floats a row takes in planes and kernels, and the bytes of either buffer (also before a plan exists:
  /// the strategy checks them against the device's memory before building one).
  int rowFloats() const { return 2 * (m_nx / 2 + 1); }
  std::size_t planeBytes() const { return planeBytes(m_nx, m_ny, m_channels); }
  static std::size_t planeBytes(int nx, int ny, int channels) {
    return static_cast<std::size_t>(channels) * ny * (2 * (nx / 2 + 1)) * sizeof(float);
  }

  /// Enqueues the kernel's transform: `kernels` (its taps in planes' layout) becomes the spectrum convolve()
  /// reads. On `queue`, after what is already in it (the queue is in order); appends the events of the
  /// launches, each named `name`.
  void transformKernel(cl::CommandQueue& queue, const cl::Buffer& kernels, std::vector<NamedEvent>& events,
                       const std::string& name);
  /// Enqueues planes ⊛ kernel (transformKernel's result), in place; the events are named "fft_rows",
  /// "fft_columns" (transform, multiply, inverse) and "fft_rows_inverse" (Layout::Columns: "fft_columns").
  void convolve(cl::CommandQueue& queue, const cl::Buffer& planes, const cl::Buffer& kernelSpectrum,
                std::vector<NamedEvent>& events);

 private:
  void append(bool kernelApp, cl::CommandQueue& queue, const cl::Buffer& buffer, const cl::Buffer* kernel,
              std::vector<NamedEvent>& events, const std::vector<std::string>& names);
  struct Impl;
  std::unique_ptr<Impl> m_impl;  // VkFFT's two applications: their kernels' arguments are set per launch,
                                 // so append() holds m_impl's mutex from setting them to enqueueing
  int m_nx = 0, m_ny = 0, m_channels = 0;
  Layout m_layout = Layout::Planes;
};

}  // namespace convolab
