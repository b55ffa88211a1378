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

/// A plan for `batches` planes of nx × ny floats ([batch][ny][nx]) to and from their half spectra
/// ([batch][ny][nx/2 + 1] float2), out of place. The inverse is unnormalised (it returns nx·ny × the input).
/// Building it compiles VkFFT's kernels for this size on the device (once per size; the driver may cache).
class FftPlan {
 public:
  FftPlan(Context& ctx, int nx, int ny, int batches);
  ~FftPlan();
  /// The plan of this size on ctx's device and OpenCL context, shared with its other users in this process:
  /// building one compiles several programs (seconds on PoCL), and auto's measurement, the live strategy and
  /// a re-prepared one ask for the same size. The last kPoolSize sizes are kept.
  static std::shared_ptr<FftPlan> shared(Context& ctx, int nx, int ny, int batches);
  static constexpr std::size_t kPoolSize = 4;
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;

  int nx() const { return m_nx; }
  int ny() const { return m_ny; }
  /// Bytes of the real planes and of the spectra the plan reads and writes.
  std::size_t realBytes() const;
  std::size_t spectrumBytes() const;

  /// Enqueues planes → spectrum (forward) or spectrum → planes (inverse) on `queue`, after what is already
  /// in it (the queue is in order); appends the events of the launches, each named `name`.
  void forward(cl::CommandQueue& queue, const cl::Buffer& planes, const cl::Buffer& spectrum,
               std::vector<NamedEvent>& events, const std::string& name);
  void inverse(cl::CommandQueue& queue, const cl::Buffer& spectrum, const cl::Buffer& planes,
               std::vector<NamedEvent>& events, const std::string& name);

 private:
  void run(int direction, cl::CommandQueue& queue, const cl::Buffer& planes, const cl::Buffer& spectrum,
           std::vector<NamedEvent>& events, const std::string& name);
  struct Impl;
  std::unique_ptr<Impl> m_impl;  // VkFFT's application: its kernels' arguments are set per launch, so
                                 // run() holds m_impl's mutex from setting them to enqueueing
  int m_nx = 0, m_ny = 0, m_batches = 0;
};

}  // namespace convolab
