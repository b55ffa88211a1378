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
/// The same with no override: for a transform that can take no other factors (fft_columns.cl: 2 and 3).
int fftSmoothSize(int n, int largestPrime);

/// Overlap-save tiles (the fft strategy): the frame cut into tilesX × tilesY tiles of tw × th output pixels
/// (the last ones in a row or column may be smaller), each padded by K − 1 into planes of nx × ny, one set of
/// three per tile, transformed as more coordinate features of one plan. One tile is the whole frame.
struct FftTileGrid {
  int tilesX = 1, tilesY = 1, tw = 0, th = 0, nx = 0, ny = 0;
  int tiles() const { return tilesX * tilesY; }
  long long points() const { return static_cast<long long>(tiles()) * nx * ny; }
};

/// The grid of about tilesX × tilesY tiles (clamped to the frame, no empty tile), planes' sides
/// fftFriendlySize(tile + K − 1, primes).
FftTileGrid fftTileGrid(int width, int height, int k, int primes, int tilesX, int tilesY);

/// The grid fft uses (docs/BENCHMARKS.md, 2026-12-04, tiles). GPUs: of the grids up to 4 × 4, those within
/// 2 % of the fewest plane points, the one with the most tiles, a cut axis keeping planes of 512 or more
/// (H200 1080p: K = 31 4 × 2 tiles, 106 µs against 117 for one; K = 63 2 × 1); where `maxColumnRows` is set
/// (the GPUs' columns path: the tallest columns fft_columns_local.cl takes eight at a time), only grids whose
/// planes are at most that tall, unless none is (H100 1080p K = 63: 2 × 2 tiles of 1024 × 648, 119.6 µs
/// against 126.4 for 2 × 1's 1152 rows, four columns a work-group: 2026-12-06). CPUs (the columns path,
/// 2026-12-05): rows of a power of two, the row count with the least padded width (the most tiles among
/// equals), then columns of 2^a·3^b over the tile rows with the fewest points, the most tiles within 2 %,
/// unless that pads to over 1.15× one tile's points (PoCL 1080p: K = 31 4 × 2 tiles of 512 × 576, K = 63
/// 2 × 1 of 1024 × 1152; 720p K = 31 3 × 1 of 512 × 768; 641 × 361 K = 45 one tile).
FftTileGrid fftDefaultTileGrid(bool gpu, int width, int height, int k, int maxColumnRows = 0);

/// CONVOLAB_FFT_TUNING's value for `name` (a measurement knob: comma-separated name=value pairs, integers;
/// docs/BENCHMARKS.md), or `fallback` where it is not set.
long fftTuning(const std::string& name, long fallback);

/// A plan for the circular convolution of `channels` real planes of nx × ny floats with one kernel each, in
/// place, through VkFFT's convolution mode: the rows' real-to-complex transform, then one launch per column
/// group that transforms, multiplies by the kernel's spectrum and transforms back, then the rows' inverse
/// (three launches a frame; the separate forward, multiply and inverse took seven and 25 % longer on the
/// H200). Layout of planes and kernels alike: [batch][channel][ny][rowFloats()], rowFloats() ≥ 2·(nx/2 + 1)
/// (room for the half spectrum of a row). The result is nx × the circular convolution (VkFFT normalises the
/// column axis it convolves along, not the rows): scale the kernel's taps by 1/nx. Layout::ColumnsOnly is the
/// other plan: the rows are transformed by the fft strategy's own kernels (kernels/fft_rows.cl), and VkFFT
/// convolves only along the columns, one 1-D convolution (transform, multiply, inverse: one launch) for each
/// of the channels · (nx/2 + 1) row frequencies, whose ny values are contiguous: layout [channel][nx/2 +
/// 1][ny] complex, within the planes' bytes (their rows are rounded up). VkFFT normalises that inverse, so
/// the result is the rows' own scale (fft_rows.cl). Layout::RowsOnly is the third: VkFFT transforms only the
/// rows (1-D real-to-complex, forward and inverse, every row of every batch and channel, planes' layout), and
/// the strategy's own kernels (kernels/fft_columns.cl) the columns in between: rowsForward, rowsInverse; the
/// inverse is not normalised (nx × the row). Building it compiles VkFFT's kernels for this size on the
/// device (once per size; the driver may cache).
class FftPlan {
 public:
  enum class Layout { Planes, ColumnsOnly, RowsOnly };  // what VkFFT transforms: both axes, one, the other
  /// `batches` sets of `channels` planes ([batch][channel][ny][rowFloats()]: the fft strategy's tiles), each
  /// convolved with its own copy of the `channels` kernels' spectra, same layout (Layout::Planes only).
  FftPlan(Context& ctx, int nx, int ny, int channels, Layout layout = Layout::Planes, int batches = 1);
  ~FftPlan();
  /// The plan of this size on ctx's device and OpenCL context, shared with its other users in this process:
  /// building one compiles several programs (seconds on PoCL), and auto's measurement, the live strategy and
  /// a re-prepared one ask for the same size. The last kPoolSize sizes are kept.
  static std::shared_ptr<FftPlan> shared(Context& ctx, int nx, int ny, int channels,
                                         Layout layout = Layout::Planes, int batches = 1);
  static constexpr std::size_t kPoolSize = 4;
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;

  int nx() const { return m_nx; }
  int ny() const { return m_ny; }
  int batches() const { return m_batches; }
  Layout layout() const { return m_layout; }
  /// Floats a row takes in planes and kernels, and the bytes of one batch's planes (what transformKernel
  /// transforms; the strategy copies it into every batch's place), also before a plan exists: the strategy
  /// checks them against the device's memory before building one.
  int rowFloats() const { return rowFloats(m_nx); }
  std::size_t planeBytes() const { return planeBytes(m_nx, m_ny, m_channels); }
  /// 2·(nx/2 + 1), rounded up to whole groups of CONVOLAB_FFT_TUNING's "align" complex values (16 by
  /// default: rows start on 128 bytes, the H200's 1080p K = 31 2 % faster).
  static int rowFloats(int nx);
  static std::size_t planeBytes(int nx, int ny, int channels) {
    return static_cast<std::size_t>(channels) * ny * rowFloats(nx) * sizeof(float);
  }

  /// Enqueues the kernel's transform: `kernels` (its taps in planes' layout) becomes the spectrum convolve()
  /// reads. On `queue`, after what is already in it (the queue is in order); appends the events of the
  /// launches, each named `name`.
  void transformKernel(cl::CommandQueue& queue, const cl::Buffer& kernels, std::vector<NamedEvent>& events,
                       const std::string& name);
  /// Enqueues planes ⊛ kernel (transformKernel's result), in place, every batch; the events are named
  /// "fft_rows", "fft_columns" (transform, multiply, inverse) and "fft_rows_inverse" (Layout::ColumnsOnly:
  /// "fft_columns").
  void convolve(cl::CommandQueue& queue, const cl::Buffer& planes, const cl::Buffer& kernelSpectrum,
                std::vector<NamedEvent>& events);
  /// Layout::RowsOnly: every row's forward real-to-complex transform, in place (events named `name`), and the
  /// inverse (nx × the row).
  void rowsForward(cl::CommandQueue& queue, const cl::Buffer& planes, std::vector<NamedEvent>& events,
                   const std::string& name);
  void rowsInverse(cl::CommandQueue& queue, const cl::Buffer& planes, std::vector<NamedEvent>& events);

 private:
  void append(bool kernelApp, cl::CommandQueue& queue, const cl::Buffer& buffer, const cl::Buffer* kernel,
              std::vector<NamedEvent>& events, const std::vector<std::string>& names, int direction = -1);
  struct Impl;
  std::unique_ptr<Impl> m_impl;  // VkFFT's two applications: their kernels' arguments are set per launch,
                                 // so append() holds m_impl's mutex from setting them to enqueueing
  int m_nx = 0, m_ny = 0, m_channels = 0, m_batches = 1;
  Layout m_layout = Layout::Planes;
};

}  // namespace convolab
