// SPDX-License-Identifier: MIT
// FftPlan over VkFFT (header-only, OpenCL backend): see fft_plan.hpp.
#include "fft_plan.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <sstream>
#include <tuple>
#include <vector>

#include "convolab/error.hpp"

#if CONVOLAB_HAVE_VKFFT
#include <CL/cl.h>

namespace {
// VkFFT enqueues its kernels without events; the engine and auto time a strategy by the events it returns.
// Its clEnqueueNDRangeKernel calls go through this one, which keeps each launch's event while a transform
// is being appended (and releases it otherwise: VkFFT's own set-up launches).
thread_local std::vector<cl_event>* t_launches = nullptr;

cl_int recordingEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint dims,
                                     const size_t* offset, const size_t* global, const size_t* local,
                                     cl_uint waitCount, const cl_event* waitFor, cl_event* event) {
  cl_event own = nullptr;
  const cl_int result =
      clEnqueueNDRangeKernel(queue, kernel, dims, offset, global, local, waitCount, waitFor, &own);
  if (result == CL_SUCCESS && own) {
    if (event)
      *event = own;
    else if (t_launches)
      t_launches->push_back(own);
    else
      clReleaseEvent(own);
  }
  return result;
}
}  // namespace

#define VKFFT_BACKEND 3
#define clEnqueueNDRangeKernel recordingEnqueueNDRangeKernel
#include <vkFFT.h>
#undef clEnqueueNDRangeKernel
#endif

namespace convolab {

bool fftAvailable() {
  return CONVOLAB_HAVE_VKFFT != 0;
}

namespace {

// CONVOLAB_FFT_TUNING (a measurement knob, docs/BENCHMARKS.md): comma-separated name=value pairs,
// "primes=N" (the largest prime factor of a plane's sides: 7 by default; 3 or 2 pad to larger, smoother
// sizes), "align=N" (rowFloats) and VkFFT's aimThreads, coalescedMemory, useLUT, registerBoost,
// performBandwidthBoost; fft.cpp reads "rows=1" (its rows path), "rowsPerGroup=2" (that path's rows a
// work-group), "columns=0|1|2" (its columns path off, on with the device's column kernel, on with the GPUs'
// fft_columns_local.cl) and "tilesX", "tilesY" (its tile grid), fft_columns.cpp "columnsPerGroup=N" (that
// kernel's columns a work-group), from the same variable.
std::vector<std::pair<std::string, long>> fftTuningPairs() {
  std::vector<std::pair<std::string, long>> out;
  const char* env = std::getenv("CONVOLAB_FFT_TUNING");
  if (!env) return out;
  std::istringstream in(env);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) continue;
    out.emplace_back(item.substr(0, eq), std::strtol(item.c_str() + eq + 1, nullptr, 10));
  }
  return out;
}

}  // namespace

long fftTuning(const std::string& name, long fallback) {
  for (const auto& [k, v] : fftTuningPairs())
    if (k == name) return v;
  return fallback;
}

int fftFriendlySize(int n, int largestPrime) {
  return fftSmoothSize(n, static_cast<int>(fftTuning("primes", largestPrime)));
}

int fftSmoothSize(int n, int largest) {
  largest = std::max(largest, 2);  // no size is 1-smooth: "primes=1" would search for ever
  for (int m = n + (n & 1);; m += 2) {
    int r = m;
    for (int p : {2, 3, 5, 7})
      if (p <= largest)
        while (r % p == 0) r /= p;
    if (r == 1) return m;
  }
}

int FftPlan::rowFloats(int nx) {
  // Read once: VkFFT's plans keep the stride they were built with, and FftPlan::shared does not key on it.
  static const long align =
      std::max(1L, fftTuning("align", 16));  // 128-byte rows: the H200 1080p K = 31 −2 %
  const long complexValues = (nx / 2 + 1 + align - 1) / align * align;
  return static_cast<int>(2 * complexValues);
}

FftTileGrid fftTileGrid(int width, int height, int k, int primes, int tilesX, int tilesY) {
  FftTileGrid g;
  g.tilesX = std::clamp(tilesX, 1, std::max(width, 1));
  g.tilesY = std::clamp(tilesY, 1, std::max(height, 1));
  g.tw = (width + g.tilesX - 1) / g.tilesX;
  g.th = (height + g.tilesY - 1) / g.tilesY;
  g.tilesX = (width + g.tw - 1) / g.tw;  // no empty tile (e.g. 5 pixels cut in 4: tiles of 2, 2, 1)
  g.tilesY = (height + g.th - 1) / g.th;
  g.nx = fftFriendlySize(g.tw + k - 1, primes);
  g.ny = fftFriendlySize(g.th + k - 1, primes);
  return g;
}

namespace {
/// Of `grids` (not empty), those within 2 % of the fewest plane points; of them the one with the most tiles.
FftTileGrid mostTilesAmongFewestPoints(const std::vector<FftTileGrid>& grids) {
  const auto fewest = std::min_element(grids.begin(), grids.end(), [](const auto& a, const auto& b) {
                        return a.points() < b.points();
                      })->points();
  const FftTileGrid* best = nullptr;
  for (const FftTileGrid& g : grids)
    if (static_cast<double>(g.points()) <= 1.02 * static_cast<double>(fewest) &&
        (!best || g.tiles() > best->tiles() || (g.tiles() == best->tiles() && g.points() < best->points())))
      best = &g;
  return *best;
}
}  // namespace

FftTileGrid fftDefaultTileGrid(bool gpu, int width, int height, int k, int maxColumnRows) {
  if (!gpu) {
    // PoCL, the columns path (VkFFT's rows, fft_columns.cl's columns of 2^a·3^b): rows of a power of two were
    // the fast ones for VkFFT (1080p K = 31: 512-sample rows 59-64 ms against 82-88 ms for one tile's 1960),
    // the row count with the least padded width, the most tiles among equals; then the fewest points over the
    // tile rows, the most tiles within 2 % (1080p K = 31: 4 × 2 tiles of 512 × 576, 39 ms against 44 for
    // 4 × 1; K = 63: 2 × 1 of 1024 × 1152, 44 ms against 52 for 2 × 2: docs/BENCHMARKS.md, 2026-12-05).
    FftTileGrid rows;
    long long bestWidth = 0;
    for (int tx = 1; tx <= 4; ++tx) {
      FftTileGrid g = fftTileGrid(width, height, k, 3, tx, 1);
      g.nx = static_cast<int>(std::bit_ceil(static_cast<unsigned>(g.tw + k - 1)));
      const long long padded = static_cast<long long>(g.tilesX) * g.nx;
      if (!bestWidth || padded <= bestWidth) rows = g, bestWidth = padded;
    }
    std::vector<FftTileGrid> grids;
    for (int ty = 1; ty <= 4; ++ty) {
      FftTileGrid g = fftTileGrid(width, height, k, 3, rows.tilesX, ty);
      g.nx = rows.nx;
      grids.push_back(g);
    }
    const FftTileGrid best = mostTilesAmongFewestPoints(grids);
    // Unless the powers of two pad much more than one tile's sides (641 × 361, K = 45: 1.5× the points,
    // 11.9 ms against 9.7 on VkFFT's columns).
    FftTileGrid one = fftTileGrid(width, height, k, 7, 1, 1);
    one.ny = fftFriendlySize(one.th + k - 1, 3);
    return static_cast<double>(best.points()) <= 1.15 * static_cast<double>(one.points()) ? best : one;
  }
  // GPUs: the fewest plane points, then the most tiles (within 2 %), a cut axis keeping planes of 512 or more
  // (1080p K = 31: 4 × 2 tiles of 512 × 576, 106 µs on the H200; one tile 117, 4 × 4 of 512 × 288 slower).
  std::vector<FftTileGrid> grids, fitting;
  for (int ty = 1; ty <= 4; ++ty)
    for (int tx = 1; tx <= 4; ++tx) {
      const FftTileGrid g = fftTileGrid(width, height, k, 3, tx, ty);
      if ((g.tilesX > 1 && g.nx < 512) || (g.tilesY > 1 && g.ny < 512)) continue;
      grids.push_back(g);
      if (maxColumnRows > 0 && g.ny <= maxColumnRows) fitting.push_back(g);
    }
  return mostTilesAmongFewestPoints(fitting.empty() ? grids : fitting);
}

std::shared_ptr<FftPlan> FftPlan::shared(Context& ctx, int nx, int ny, int channels, Layout layout,
                                         int batches) {
  using Key = std::tuple<cl_context, cl_device_id, int, int, int, Layout, int>;
  static std::mutex mutex;
  // Most recently used last. Never destroyed: releasing OpenCL objects from static destructors, after the
  // driver may have gone, is what crashed PoCL at exit before (registry.hpp, stopAutoMeasurements).
  static auto& pool = *new std::vector<std::pair<Key, std::shared_ptr<FftPlan>>>;
  const Key key{ctx.context()(), ctx.clDevice()(), nx, ny, channels, layout, batches};
  std::lock_guard lock(mutex);  // held while building: a second asker of the same size waits, not builds
  auto it = std::find_if(pool.begin(), pool.end(), [&](const auto& e) { return e.first == key; });
  std::shared_ptr<FftPlan> plan;
  if (it != pool.end()) {
    plan = it->second;
    pool.erase(it);
  } else {
    plan = std::make_shared<FftPlan>(ctx, nx, ny, channels, layout, batches);
  }
  pool.emplace_back(key, plan);
  if (pool.size() > kPoolSize) pool.erase(pool.begin());
  return plan;
}

namespace {
/// A call the plan's layout has no application for (a caller's bug: RowsOnly plans transform rows only, the
/// others convolve): an error, not a launch of an application that was never built.
void requireLayout(bool fits, const char* call) {
  if (!fits)
    throw Error(ErrorKind::Device, std::string("fft: ") + call + " called on a plan of another layout");
}
}  // namespace

void FftPlan::transformKernel(cl::CommandQueue& queue, const cl::Buffer& kernels,
                              std::vector<NamedEvent>& events, const std::string& name) {
  requireLayout(m_layout != Layout::RowsOnly, "transformKernel");
  append(true, queue, kernels, nullptr, events, {name});
}

void FftPlan::rowsForward(cl::CommandQueue& queue, const cl::Buffer& planes, std::vector<NamedEvent>& events,
                          const std::string& name) {
  requireLayout(m_layout == Layout::RowsOnly, "rowsForward");
  append(false, queue, planes, nullptr, events, {name}, -1);
}

void FftPlan::rowsInverse(cl::CommandQueue& queue, const cl::Buffer& planes,
                          std::vector<NamedEvent>& events) {
  requireLayout(m_layout == Layout::RowsOnly, "rowsInverse");
  append(false, queue, planes, nullptr, events, {"fft_rows_inverse"}, 1);
}

void FftPlan::convolve(cl::CommandQueue& queue, const cl::Buffer& planes, const cl::Buffer& kernelSpectrum,
                       std::vector<NamedEvent>& events) {
  requireLayout(m_layout != Layout::RowsOnly, "convolve");
  if (m_layout == Layout::ColumnsOnly)
    append(false, queue, planes, &kernelSpectrum, events, {"fft_columns"});
  else
    append(false, queue, planes, &kernelSpectrum, events, {"fft_rows", "fft_columns", "fft_rows_inverse"});
}

#if CONVOLAB_HAVE_VKFFT

struct FftPlan::Impl {
  VkFFTApplication kernelApp{}, convolutionApp{};  // the kernel's forward transform; the convolution
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_platform_id platform = nullptr;
  uint64_t bytes = 0, kernelBytes = 0;  // all batches' planes; one batch's (the kernel's spectrum)
  int initialised = 0;                  // applications built (deleted in the destructor)
  bool rowsOnly = false;                // Layout::RowsOnly: convolutionApp alone, the rows' plain transform
  std::mutex launching;
  ~Impl() {
    if (initialised > 1 || rowsOnly) deleteVkFFT(&convolutionApp);
    if (initialised > 0) deleteVkFFT(&kernelApp);
  }
};

FftPlan::FftPlan(Context& ctx, int nx, int ny, int channels, Layout layout, int batches)
    : m_impl(std::make_unique<Impl>()),
      m_nx(nx),
      m_ny(ny),
      m_channels(channels),
      m_batches(batches),
      m_layout(layout) {
  Impl& p = *m_impl;
  p.device = ctx.clDevice()();
  p.context = ctx.context()();
  p.platform = ctx.clDevice().getInfo<CL_DEVICE_PLATFORM>();
  p.kernelBytes = planeBytes();
  p.bytes = p.kernelBytes * static_cast<uint64_t>(batches);
  VkFFTConfiguration c{};
  if (layout == Layout::RowsOnly) {
    // 1-D along each row; the rows of every plane of every batch are the second, untransformed dimension.
    c.FFTdim = 1;
    c.size[0] = static_cast<uint64_t>(nx);
    c.size[1] = static_cast<uint64_t>(ny) * static_cast<uint64_t>(channels) * static_cast<uint64_t>(batches);
    c.performR2C = 1;
    c.bufferStride[0] = static_cast<uint64_t>(rowFloats(nx) / 2);
  } else if (layout == Layout::ColumnsOnly) {
    // 1-D along the contiguous ny values; each (channel, row frequency) is a "coordinate" with a kernel of
    // its own (VkFFT launches them over its grid's third dimension).
    c.FFTdim = 1;
    c.size[0] = static_cast<uint64_t>(ny);
    c.coordinateFeatures = static_cast<uint64_t>(channels) * static_cast<uint64_t>(nx / 2 + 1);
  } else {
    c.FFTdim = 2;
    c.size[0] = static_cast<uint64_t>(nx);
    c.size[1] = static_cast<uint64_t>(ny);
    c.performR2C = 1;  // in place: rows of rowFloats() floats (VkFFT's default: 2·(nx/2 + 1))
    c.bufferStride[0] = static_cast<uint64_t>(rowFloats(nx) / 2);  // complex values; real rows read 2× it
    c.coordinateFeatures = static_cast<uint64_t>(channels);        // one kernel per channel, no mixing
  }
  c.bufferSize = &p.kernelBytes;
  c.kernelSize = &p.kernelBytes;
  c.device = &p.device;
  c.context = &p.context;
  c.platform = &p.platform;
  for (const auto& [name, value] : fftTuningPairs()) {
    const auto v = static_cast<uint64_t>(value);
    if (name == "aimThreads") c.aimThreads = v;
    if (name == "coalescedMemory") c.coalescedMemory = v;
    if (name == "useLUT") c.useLUT = v;
    if (name == "registerBoost") c.registerBoost = v;
    if (name == "performBandwidthBoost") c.performBandwidthBoost = v;
  }
  auto fail = [&](VkFFTResult result) {
    return Error(ErrorKind::Device, "fft: VkFFT could not plan a " + std::to_string(nx) + "x" +
                                        std::to_string(ny) + " convolution (VkFFTResult " +
                                        std::to_string(static_cast<int>(result)) + ")");
  };
  if (layout == Layout::RowsOnly) {  // one plain application, forward and inverse
    p.bytes = p.kernelBytes * static_cast<uint64_t>(batches);
    c.bufferSize = &p.bytes;
    if (const VkFFTResult r = initializeVkFFT(&p.convolutionApp, c); r != VKFFT_SUCCESS) throw fail(r);
    p.rowsOnly = true;
    return;
  }
  VkFFTConfiguration kc = c;
  kc.kernelConvolution = 1;
  if (const VkFFTResult r = initializeVkFFT(&p.kernelApp, kc); r != VKFFT_SUCCESS) throw fail(r);
  p.initialised = 1;
  VkFFTConfiguration cc = c;
  cc.performConvolution = 1;  // the kernel buffer is given at each launch
  // The batches as more coordinate features (VkFFT's numberBatches gave wrong results for all but the first
  // batch on PoCL), each with its own kernel: the strategy copies the transformed kernels into every batch's
  // place.
  if (layout == Layout::Planes) cc.coordinateFeatures = static_cast<uint64_t>(channels) * batches;
  cc.bufferSize = &p.bytes;
  cc.kernelSize = &p.bytes;
  if (const VkFFTResult r = initializeVkFFT(&p.convolutionApp, cc); r != VKFFT_SUCCESS) throw fail(r);
  p.initialised = 2;
}

FftPlan::~FftPlan() = default;

void FftPlan::append(bool kernelApp, cl::CommandQueue& queue, const cl::Buffer& buffer,
                     const cl::Buffer* kernel, std::vector<NamedEvent>& events,
                     const std::vector<std::string>& names, int direction) {
  cl_command_queue q = queue();
  cl_mem data = buffer(), taps = kernel ? (*kernel)() : nullptr;
  VkFFTLaunchParams launch{};
  launch.commandQueue = &q;
  launch.buffer = &data;
  if (kernel) launch.kernel = &taps;
  std::vector<cl_event> launches;
  std::lock_guard lock(m_impl->launching);
  t_launches = &launches;
  const VkFFTResult result =
      VkFFTAppend(kernelApp ? &m_impl->kernelApp : &m_impl->convolutionApp, direction, &launch);
  t_launches = nullptr;
  for (std::size_t i = 0; i < launches.size(); ++i)  // cl::Event takes the reference
    events.push_back({names[std::min(i, names.size() - 1)], cl::Event(launches[i])});
  if (result != VKFFT_SUCCESS)
    throw Error(ErrorKind::Device, "fft: VkFFT could not enqueue a transform (VkFFTResult " +
                                       std::to_string(static_cast<int>(result)) + ")");
}

#else

struct FftPlan::Impl {};

FftPlan::FftPlan(Context&, int nx, int ny, int channels, Layout layout, int batches)
    : m_nx(nx), m_ny(ny), m_channels(channels), m_batches(batches), m_layout(layout) {
  throw Error(ErrorKind::Device, "fft: this build has no VkFFT (install libvkfft-dev and rebuild)");
}

FftPlan::~FftPlan() = default;

void FftPlan::append(bool, cl::CommandQueue&, const cl::Buffer&, const cl::Buffer*, std::vector<NamedEvent>&,
                     const std::vector<std::string>&, int) {}

#endif

}  // namespace convolab
