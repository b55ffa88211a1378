// SPDX-License-Identifier: MIT
// fft: pad with the border rule; transform, multiply by the kernel's spectrum, transform back; crop. Three
// paths, all in overlap-save tiles (the grid fftDefaultTileGrid picks for the device, fft_plan.hpp):
// "columns", the default (VkFFT transforms only the rows; our kernel the columns and the product:
// fft_columns_local.cl on GPUs, fft_columns.cl on CPUs); "planes", the fallback where a GPU's local memory
// cannot hold its columns, or asked for (fft.cl pads and crops, VkFFT's convolution transforms rows and
// columns; the GPUs' default until the H100's 2026-12-06 run, docs/BENCHMARKS.md);
// "rows", asked for by the variant or CONVOLAB_FFT_TUNING=rows=1 (fft_rows.cl transforms the rows with the
// padding and the rounding store folded in, VkFFT only the columns: measured slower on the H200 so far,
// docs/BENCHMARKS.md). Its cost hardly grows with K: the strategy for large kernels (docs/ARCHITECTURE.md,
// "The fft path").
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <numbers>
#include <string>
#include <tuple>
#include <vector>

#include "../fft_columns.hpp"
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
/// The rows path's row lengths: nx = 2·M real samples, M a power of two (fft_rows.cl's FFT_M), from 128 (a
/// work-group of 16) to 2048 (M = 1024: 256 work-items, 33 KB of local memory for its four rows).
constexpr int kRowsMinNx = 128, kRowsMaxNx = 2048;
/// fft_rows.cl's ROWS (CONVOLAB_FFT_TUNING's "rowsPerGroup=2" for measurements).
int rowsPerGroup() {
  return fftTuning("rowsPerGroup", 4) == 2 ? 2 : 4;
}

/// CONVOLAB_FFT_TUNING's "rows=1" (a measurement knob, fft_plan.cpp): the rows path where it fits.
int rowsKnob() {
  return fftTuning("rows", 0) == 1 ? 1 : 0;
}

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

  /// "rows" asks for the rows path; "planes" for VkFFT's 2-D transforms (the GPUs' fallback) over one tile
  /// (the whole frame), "tiles" for them over a grid of 2 × 3 tiles whatever the frame; "columns" for the
  /// columns path (the default) and "columns-tiles" for it over 2 × 3 tiles, "columns-local" for it with the
  /// GPUs' column kernel (fft_columns_local.cl) over 2 × 3 tiles (tests run them all on PoCL this way); ""
  /// keeps the device's default.
  void setTuningVariant(const std::string& variant) override { m_variant = variant; }

  bool preparesWithoutBuild(const Context&, const FilterSet& next) const override {
    return m_plan && next.size() == m_k && next.border() == m_borderMode;  // taps re-transformed, no build
  }

  /// A prepare that throws part way (a build, the plan, the memory) leaves no plan: the next prepare starts
  /// over instead of taking the half-set path and grid for a filter edit (preparesWithoutBuild).
  void prepare(Context& ctx, const FilterSet& filter, int width, int height) override {
    try {
      prepareAll(ctx, filter, width, height);
    } catch (...) {
      m_plan.reset();
      throw;
    }
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    if (rowsPath()) return enqueueRows(ctx, frame, waitFor);
    const int rs = m_plan->rowFloats(), ny = m_plan->ny();
    std::vector<NamedEvent> events;
    const FftTileGrid& g = m_grid;
    setArgs(m_pad, frame.input, m_planes, frame.width, frame.height, rs, ny, m_border, g.tw, g.th, m_origins);
    events.push_back(launch2d(ctx, m_pad, "fft_pad", cover(rs, ny, g.tiles()),
                              cl::NDRange(kPlaneGroupX, kPlaneGroupY, 1), waitFor));
    // The queue is in order: VkFFT's launches and ours follow one another.
    if (columnsPath()) {
      m_plan->rowsForward(ctx.queue(), m_planes, events, "fft_rows");
      events.push_back(m_columns.launch(ctx, m_planes, m_kernelSpectrum, m_plan->nx(), rs, 3 * g.tiles(),
                                        true, "fft_columns"));
      m_plan->rowsInverse(ctx.queue(), m_planes, events);
    } else {
      m_plan->convolve(ctx.queue(), m_planes, m_kernelSpectrum, events);
    }
    setArgs(m_crop, m_planes, frame.output, frame.width, frame.height, rs, ny, m_offset, g.tw, g.th,
            m_origins);
    events.push_back(launch2d(ctx, m_crop, "fft_crop", cover(g.tw, g.th, g.tiles()),
                              cl::NDRange(kPlaneGroupX, kPlaneGroupY, 1), {}));
    return events;
  }

 private:
  void prepareAll(Context& ctx, const FilterSet& filter, int width, int height) {
    const std::string options = baseBuildOptions(filter);
    if (options != m_options) {
      const cl::Program program = ctx.buildKernelProgram("fft", options);
      m_pad = cl::Kernel(program, "fft_pad");
      m_taps = cl::Kernel(program, "fft_taps");
      m_crop = cl::Kernel(program, "fft_crop");
      m_options = options;
    }
    const int rowsNx = std::max(
        kRowsMinNx, static_cast<int>(std::bit_ceil(static_cast<unsigned>(width + filter.size() - 1))));
    // The path is the plan's layout, what VkFFT transforms: the rows path leaves it the columns, the columns
    // path the rows.
    m_layout = usesRows(ctx, rowsNx) ? FftPlan::Layout::ColumnsOnly
               : usesColumns()       ? FftPlan::Layout::RowsOnly
                                     : FftPlan::Layout::Planes;
    chooseGrid(ctx, width, height, rowsNx, filter.size());
    if (columnsPath() && usesLocalColumns(ctx) && !fftLocalColumnsFit(ctx.device(), m_grid.ny) &&
        m_variant.empty() && fftTuning("columns", -1) == -1) {
      // The default on a GPU whose local memory cannot hold these columns (tall tiles, or a small local
      // memory): VkFFT's 2-D path, which has no such limit. Asked for by a variant or knob, the columns path
      // throws instead (FftColumns::build), and the engine falls back, saying so.
      m_layout = FftPlan::Layout::Planes;
      chooseGrid(ctx, width, height, rowsNx, filter.size());
    }
    uploadOrigins(ctx);
    const int nx = m_grid.nx, ny = m_grid.ny;
    if (rowsPath()) buildRows(ctx, nx);
    if (columnsPath()) m_columns.build(ctx, nx, ny, usesLocalColumns(ctx));
    if (!m_plan || m_plan->nx() != nx || m_plan->ny() != ny || m_plan->batches() != m_grid.tiles() ||
        m_plan->layout() != m_layout)
      allocate(ctx, nx, ny, m_layout, m_grid.tiles());
    m_k = filter.size();
    m_radius = filter.size() / 2;
    m_borderMode = filter.border();
    m_offset = offsetsOf(filter);
    m_border = borderValuesOf(filter);
    transformTaps(ctx, filter);
  }

  /// m_grid for m_layout. GPUs: sides of 2^a·3^b (1080p, K = 31: 2048 × 1152, 151 µs on the H200 against
  /// 162 µs for 1960 × 1120); CPUs factors up to 7 where a knob or variant sets the grid (the default grid:
  /// rows of powers of two, columns of 2^a·3^b, fftDefaultTileGrid). The columns path's columns are always
  /// 2^a·3^b, the rows path's rows powers of two (fft_rows.cl).
  void chooseGrid(const Context& ctx, int width, int height, int rowsNx, int k) {
    const DeviceInfo& dev = ctx.device();
    const int primes = dev.isGpu ? 3 : 7;
    if (rowsPath() || m_variant == "planes")
      m_grid = fftTileGrid(width, height, k, primes, 1, 1);
    else if (m_variant == "tiles" || m_variant == "columns-tiles" || m_variant == "columns-local")
      m_grid = fftTileGrid(width, height, k, primes, 2, 3);
    else if (fftTuning("tilesX", 0) > 0 || fftTuning("tilesY", 0) > 0)
      m_grid = fftTileGrid(width, height, k, primes, static_cast<int>(fftTuning("tilesX", 1)),
                           static_cast<int>(fftTuning("tilesY", 1)));
    else
      m_grid = fftDefaultTileGrid(dev.isGpu, width, height, k,
                                  columnsPath() && usesLocalColumns(ctx) ? fftFullWidthColumnRows(dev) : 0);
    if (columnsPath())
      m_grid.ny = fftSmoothSize(m_grid.th + k - 1, 3);  // the column kernels' radices 2, 3, 4
    if (rowsPath()) m_grid.nx = rowsNx;
    while (rowsPath() && m_grid.ny % rowsPerGroup() != 0)
      m_grid.ny = fftFriendlySize(m_grid.ny + 1, primes);  // fft_rows.cl's float8
  }

  static cl::NDRange cover(int w, int h) {
    return {roundUp(static_cast<size_t>(w), kPlaneGroupX), roundUp(static_cast<size_t>(h), kPlaneGroupY)};
  }
  static cl::NDRange cover(int w, int h, int tiles) {
    return {roundUp(static_cast<size_t>(w), kPlaneGroupX), roundUp(static_cast<size_t>(h), kPlaneGroupY),
            static_cast<size_t>(tiles)};
  }

  /// Each tile's first output pixel (fft.cl's origins), row by row.
  void uploadOrigins(Context& ctx) {
    const OriginsKey key{ctx.context()(), m_grid.tilesX, m_grid.tilesY, m_grid.tw, m_grid.th};
    if (m_origins() && key == m_originsKey) return;  // a filter edit at the same size: the same grid
    std::vector<cl_int2> origins;
    for (int ty = 0; ty < m_grid.tilesY; ++ty)
      for (int tx = 0; tx < m_grid.tilesX; ++tx) origins.push_back({{tx * m_grid.tw, ty * m_grid.th}});
    try {
      m_origins = cl::Buffer(ctx.context(), CL_MEM_READ_ONLY, origins.size() * sizeof(cl_int2));
      ctx.queue().enqueueWriteBuffer(m_origins, CL_TRUE, 0, origins.size() * sizeof(cl_int2), origins.data());
    } catch (const cl::Error& e) {
      throw ClError(e.what(), e.err(), "fft: the tiles' origins");
    }
    m_originsKey = key;
  }

  /// The rows path only where it is asked for (the variant, or CONVOLAB_FFT_TUNING's rows=1) and fits
  /// fft_rows.cl: rows a power of two up to 2048 (1080p up to K = 129), a work-group's rows in local memory.
  /// Not the default anywhere: on the H200 at 1080p K = 31 it took 127 µs against the planes' 120 (VkFFT's
  /// columns 30 µs instead of 97 for its three launches, but the own row passes 59 + 38 µs against pad, crop
  /// and VkFFT's row passes' 71: docs/BENCHMARKS.md, 2026-12-04).
  bool usesRows(const Context& ctx, int rowsNx) const {
    const DeviceInfo& dev = ctx.device();
    const std::size_t group = static_cast<std::size_t>(rowsNx / 8);
    const std::uint64_t local =
        static_cast<std::uint64_t>(rowsPerGroup()) * (rowsNx / 2 + rowsNx / 32 + 1) * 8;  // BUF_LEN
    const bool fits = rowsNx <= kRowsMaxNx && (!dev.maxWorkGroupSize || group <= dev.maxWorkGroupSize) &&
                      (!dev.localMemBytes || local <= dev.localMemBytes);
    if (!fits || m_variant == "planes") return false;
    return m_variant == "rows" || rowsKnob() == 1;
  }

  /// The columns path (VkFFT only the rows, our kernel the columns) everywhere, unless the variant or
  /// CONVOLAB_FFT_TUNING's "columns=0" says otherwise. On PoCL VkFFT's column pass, kernels shaped for GPUs,
  /// took half the frame (docs/BENCHMARKS.md, 2026-12-05); on the H100 at 1080p fft_columns_local.cl made
  /// K = 31 99.6 µs against the planes' 116.9, K = 63 119.6 against 124.5 (2026-12-06).
  bool usesColumns() const {
    if (m_variant == "columns" || m_variant == "columns-tiles" || m_variant == "columns-local") return true;
    if (!m_variant.empty()) return false;
    return fftTuning("columns", -1) != 0;
  }

  bool columnsPath() const { return m_layout == FftPlan::Layout::RowsOnly; }
  bool rowsPath() const { return m_layout == FftPlan::Layout::ColumnsOnly; }

  /// The columns path's kernel: fft_columns_local.cl on GPUs (or asked for by the variant "columns-local" or
  /// CONVOLAB_FFT_TUNING's "columns=2"), fft_columns.cl on CPUs.
  bool usesLocalColumns(const Context& ctx) const {
    if (m_variant == "columns-local") return true;
    if (!m_variant.empty()) return false;
    return fftTuning("columns", -1) == 2 || ctx.device().isGpu;
  }

  /// fft_rows.cl for rows of nx samples, and its twiddle table (double precision, rounded once to float). The
  /// radius and the border are its arguments: one program per row length.
  void buildRows(Context& ctx, int nx) {
    const int m = nx / 2;
    const std::string rowsOptions =
        "-DBORDER_MODE=BORDER_REFLECT101 -DFFT_M=" + std::to_string(m) +
        " -DFFT_LOG2M=" + std::to_string(static_cast<int>(std::lround(std::log2(m)))) +
        " -DFFT_ROWS=" + std::to_string(rowsPerGroup());
    if (rowsOptions == m_rowsPath.options) return;
    const cl::Program program = ctx.buildKernelProgram("fft_rows", rowsOptions);
    m_rowsPath.forward = cl::Kernel(program, "fft_rows_forward");
    m_rowsPath.inverse = cl::Kernel(program, "fft_rows_inverse");
    std::vector<float> table(static_cast<std::size_t>(4 * m));  // e^(−2πit/nx), t < nx, as (re, im)
    for (int t = 0; t < 2 * m; ++t) {
      const double angle = -std::numbers::pi * t / m;
      table[2 * t] = static_cast<float>(std::cos(angle));
      table[2 * t + 1] = static_cast<float>(std::sin(angle));
    }
    uploadFloats(ctx, m_rowsPath.twiddles, table);
    m_rowsPath.options = rowsOptions;
  }

  /// A frame on the rows path: rows forward (padding folded in), VkFFT's columns, rows inverse (store folded
  /// in).
  std::vector<NamedEvent> enqueueRows(Context& ctx, const FrameBuffers& frame,
                                      const std::vector<cl::Event>& waitFor) {
    const int ny = m_plan->ny();
    std::vector<NamedEvent> events;
    const cl_int fromFrame = 0;
    setArgs(m_rowsPath.forward, frame.input, m_rowsPath.tapsPlane, fromFrame, m_planes, m_rowsPath.twiddles,
            frame.width, frame.height, ny, m_radius, static_cast<cl_int>(m_borderMode), m_border);
    events.push_back(launch2d(ctx, m_rowsPath.forward, "fft_rows", rowsRange(ny), rowsGroup(), waitFor));
    m_plan->convolve(ctx.queue(), m_planes, m_kernelSpectrum, events);
    setArgs(m_rowsPath.inverse, m_planes, frame.output, m_rowsPath.twiddles, frame.width, frame.height, ny,
            m_offset);
    events.push_back(
        launch2d(ctx, m_rowsPath.inverse, "fft_rows_inverse", rowsRange(frame.height), rowsGroup(), {}));
    return events;
  }

  cl::NDRange rowsGroup() const { return {static_cast<std::size_t>(m_plan->nx() / 8), 1}; }
  /// Groups of four rows of each channel (fft_rows.cl: the channel varies fastest).
  cl::NDRange rowsRange(int rows) const {
    return {static_cast<std::size_t>(m_plan->nx() / 8),
            3 * ((static_cast<std::size_t>(rows) + rowsPerGroup() - 1) / rowsPerGroup())};
  }

  /// Plan and buffers for `tiles` sets of nx × ny planes; refuses (Error, the engine falls back) what the
  /// device cannot hold.
  void allocate(Context& ctx, int nx, int ny, FftPlan::Layout layout, int tiles) {
    m_plan.reset();
    const std::uint64_t spectrum = FftPlan::planeBytes(nx, ny, 3), planes = spectrum * tiles;
    const DeviceInfo& dev = ctx.device();
    const std::uint64_t need = 2 * planes;  // the frame's planes and the kernel's spectrum, once per tile
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
    if (layout == FftPlan::Layout::ColumnsOnly) {
      try {
        m_rowsPath.tapsPlane =
            cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, std::size_t{3} * nx * ny * sizeof(float));
      } catch (const cl::Error& e) {
        throw ClError("clCreateBuffer", e.err(), "fft: the taps' plane");
      }
    }
    m_plan = FftPlan::shared(ctx, nx, ny, 3, layout, tiles);
  }

  /// The kernel's spectrum, once per filter change: taps into zeroed planes, forward transform in place.
  void transformTaps(Context& ctx, const FilterSet& filter) {
    const int nx = m_plan->nx(), ny = m_plan->ny();
    uploadFloats(ctx, m_weights, packedWeights(filter));
    std::vector<NamedEvent> events;
    try {
      if (rowsPath()) {
        // Taps into a real nx × ny plane, its rows through fft_rows_forward, VkFFT's columns: the spectrum.
        // 1/M: the rows' inverse returns M × the row (fft_rows.cl); VkFFT normalises the columns.
        ctx.queue().enqueueFillBuffer(m_rowsPath.tapsPlane, 0.0f, 0,
                                      std::size_t{3} * nx * ny * sizeof(float));
        setArgs(m_taps, m_weights, m_rowsPath.tapsPlane, nx, nx, ny, static_cast<float>(2.0 / double(nx)));
        events.push_back(launch2d(ctx, m_taps, "fft_taps", cover(filter.size(), filter.size()),
                                  cl::NDRange(kPlaneGroupX, kPlaneGroupY), {}));
        const cl_int fromTaps = 1;
        setArgs(m_rowsPath.forward, m_weights, m_rowsPath.tapsPlane, fromTaps, m_kernelSpectrum,
                m_rowsPath.twiddles, 0, 0, ny, 0, static_cast<cl_int>(m_borderMode), m_border);
        events.push_back(
            launch2d(ctx, m_rowsPath.forward, "fft_kernel_rows", rowsRange(ny), rowsGroup(), {}));
      } else if (columnsPath()) {
        // Taps into tile 0's planes (the rest zero: VkFFT's rows transform every tile), the rows forward, the
        // columns forward: the spectrum every tile shares. 1/(nx·ny): neither inverse is normalised.
        ctx.queue().enqueueFillBuffer(m_kernelSpectrum, 0.0f, 0, m_plan->planeBytes() * m_plan->batches());
        setArgs(m_taps, m_weights, m_kernelSpectrum, nx, m_plan->rowFloats(), ny,
                static_cast<float>(1.0 / (double(nx) * double(ny))));
        events.push_back(launch2d(ctx, m_taps, "fft_taps", cover(filter.size(), filter.size()),
                                  cl::NDRange(kPlaneGroupX, kPlaneGroupY), {}));
        m_plan->rowsForward(ctx.queue(), m_kernelSpectrum, events, "fft_kernel");
        events.push_back(m_columns.launch(ctx, m_kernelSpectrum, m_kernelSpectrum, nx, m_plan->rowFloats(), 3,
                                          false, "fft_kernel"));
        ctx.queue().finish();
        return;
      } else {
        ctx.queue().enqueueFillBuffer(m_kernelSpectrum, 0.0f, 0, m_plan->planeBytes());
        setArgs(m_taps, m_weights, m_kernelSpectrum, nx, m_plan->rowFloats(), ny,
                static_cast<float>(1.0 / double(nx)));
        events.push_back(launch2d(ctx, m_taps, "fft_taps", cover(filter.size(), filter.size()),
                                  cl::NDRange(kPlaneGroupX, kPlaneGroupY), {}));
      }
      m_plan->transformKernel(ctx.queue(), m_kernelSpectrum, events, "fft_kernel");
      const std::size_t spectrum = m_plan->planeBytes();
      for (int t = 1; t < m_plan->batches(); ++t)  // VkFFT reads each tile's kernel from its own copy
        ctx.queue().enqueueCopyBuffer(m_kernelSpectrum, m_kernelSpectrum, 0, t * spectrum, spectrum);
      ctx.queue().finish();
    } catch (const cl::Error& e) {
      throw ClError(e.what(), e.err(), "fft: transforming the filter's taps");
    }
  }

  /// The rows path's program, kernels and buffers (fft_rows.cl).
  struct RowsPath {
    std::string options;
    cl::Kernel forward, inverse;
    cl::Buffer tapsPlane, twiddles;  // the taps' real plane [3][ny][nx]; e^(−2πit/nx), t < nx
  };

  std::string m_options, m_variant;
  cl::Kernel m_pad, m_taps, m_crop;
  RowsPath m_rowsPath;
  FftColumns m_columns;  // the columns path's column transforms
  std::shared_ptr<FftPlan> m_plan;
  FftPlan::Layout m_layout = FftPlan::Layout::Planes;  // the path prepare chose (the plan's layout)
  FftTileGrid m_grid;
  cl::Buffer m_planes, m_kernelSpectrum, m_weights, m_origins;
  using OriginsKey = std::tuple<cl_context, int, int, int, int>;  // what m_origins was written for
  OriginsKey m_originsKey{};
  int m_k = 0;
  cl_int m_radius = 0;
  BorderMode m_borderMode = BorderMode::Reflect101;
  cl_float4 m_offset{}, m_border{};
};

}  // namespace

std::unique_ptr<Strategy> makeFftStrategy() {
  return std::make_unique<FftStrategy>();
}

}  // namespace convolab
