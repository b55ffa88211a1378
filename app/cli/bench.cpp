// `bench`: times every strategy (kernel, transfers, frame) against OpenCV's filter2D on CPU and OpenCL;
// --soak.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <opencv2/core.hpp>
#include <opencv2/core/ocl.hpp>
#include <random>

#include "bench.hpp"
#include "commands.hpp"
#include "convolab/engine.hpp"
#include "convolab/error.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/frame_stream.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "cv_interop.hpp"

namespace convolab::cli {
namespace {
/// Smallest multiple of `m` that is >= v.
std::size_t roundUpTo(std::size_t v, std::size_t m) {
  return (v + m - 1) / m * m;
}
}  // namespace
}  // namespace convolab::cli

namespace convolab::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kSeed = 20240607;  // frames and the random filter: same numbers every run

struct BenchOptions {
  std::vector<std::string> sizes;
  std::vector<std::string> strategies{"all"};
  std::string filter = "random";
  std::string border;
  std::string device;
  int iterations = 50;
  int warmup = 5;
  std::string json;
  std::string markdown;
  int soak = 0;
  int streamFrames = 200;
  bool skipOpenCV = false;
  bool skipProbe = false;
  bool quiet = false;
  int ksize = 7;          ///< K of the built-in random and gaussian filters
  int kernelLoop = 0;     ///< back-to-back launches per strategy on device buffers (0: skip)
  bool variants = false;  ///< with kernelLoop: every tuning variant, not only the default
};

struct Size {
  int width = 0, height = 0;
  std::string label() const { return std::to_string(width) + "x" + std::to_string(height); }
};

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string fmt(double v, int digits = 3) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

void progress(const std::string& line) {
  std::cerr << "bench: " << line << std::endl;
}

Size parseSize(const std::string& text) {
  const auto x = text.find_first_of("xX");
  Size s;
  try {
    size_t used = 0;
    if (x == std::string::npos) throw std::invalid_argument("no x");
    s.width = std::stoi(text.substr(0, x), &used);
    if (used != x) throw std::invalid_argument("junk");
    s.height = std::stoi(text.substr(x + 1), &used);
    if (used != text.size() - x - 1) throw std::invalid_argument("junk");
  } catch (const std::exception&) {
    throw Error(ErrorKind::Usage, "--size '" + text + "': expected WIDTHxHEIGHT, e.g. 1920x1080");
  }
  if (s.width < 1 || s.height < 1 || s.width > 65536 || s.height > 65536)
    throw Error(ErrorKind::Usage, "--size '" + text + "': width and height must be 1 to 65536");
  return s;
}

/// "random": dense per-channel 7x7 (positive weights, divisor = their sum; full rank). "gaussian": the
/// rank-1 binomial 7x7. Anything else is a filter file.
FilterSet benchFilter(const std::string& spec, int k, std::string& description) {
  const std::string kk = std::to_string(k) + "x" + std::to_string(k);
  if (spec == "random") {
    std::mt19937 rng(kSeed);
    std::uniform_real_distribution<double> dist(0.05, 1.0);
    std::array<ChannelFilter, kChannels> channels;
    for (auto& f : channels) {
      f.size = k;
      f.matrix.resize(static_cast<size_t>(k * k));
      double sum = 0;
      for (double& w : f.matrix) sum += (w = std::round(dist(rng) * 1000) / 1000);
      f.divisor = sum;
    }
    description = "random dense per-channel " + kk + " (seed " + std::to_string(kSeed) + ")";
    return FilterSet::make(channels, BorderMode::Reflect101, {0, 0, 0}, "random " + kk + " per channel");
  }
  if (spec == "gaussian") {
    std::vector<double> b{1};  // binomial coefficients of order K-1: 1 6 15 20 15 6 1 for K = 7
    for (int n = 1; n < k; ++n) {
      std::vector<double> next(b.size() + 1, 0.0);
      for (size_t i = 0; i < b.size(); ++i) next[i] += b[i], next[i + 1] += b[i];
      b = std::move(next);
    }
    ChannelFilter f;
    f.size = k;
    f.matrix.clear();
    for (double r : b)
      for (double c : b) f.matrix.push_back(r * c);
    f.divisor = std::ldexp(1.0, 2 * (k - 1));
    description = "gaussian: binomial " + kk + ", rank 1, same for all channels";
    return FilterSet::uniform(f, BorderMode::Reflect101, "Gaussian " + kk);
  }
  FilterSet f = loadFilterFile(spec);
  description = "file " + spec + (f.name().empty() ? "" : " (" + f.name() + ")");
  return f;
}

Image randomFrame(Size s) {
  Image img(s.width, s.height);
  std::mt19937 rng(kSeed ^ static_cast<std::uint32_t>(s.width * 65537 + s.height));
  for (auto& p : img.pixels) p = static_cast<std::uint8_t>(rng() >> 24);
  return img;
}

int maxAbsDiff(const Image& a, const cv::Mat& b) {
  cv::Mat diff;
  cv::absdiff(asMat(a), b, diff);
  double mx = 0;
  cv::minMaxLoc(diff.reshape(1), nullptr, &mx);
  return static_cast<int>(mx);
}

// ---- device and FP32 peak -------------------------------------------------------------------------------

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// FP32 lanes per compute unit where the device name tells (OpenCL does not report it).
std::optional<std::pair<int, std::string>> lanesPerComputeUnit(const DeviceInfo& d) {
  const std::string name = lower(d.name), vendor = lower(d.vendor), platform = lower(d.platformName);
  auto has = [&](const char* s) { return name.find(s) != std::string::npos; };
  if (vendor.find("nvidia") != std::string::npos) {
    if (has("h100") || has("h200") || has("h800") || has("gh200"))
      return {{128, "Hopper: 128 FP32 lanes per SM"}};
    if (has("a100") || has("a800") || has("a30")) return {{64, "GA100: 64 FP32 lanes per SM"}};
    if (has("v100") || has("p100")) return {{64, "GV100/GP100: 64 FP32 lanes per SM"}};
    if (has("t4") || has("rtx 20") || has("titan rtx")) return {{64, "Turing: 64 FP32 lanes per SM"}};
    if (has("rtx 30") || has("rtx 40") || has("rtx a") || has("a10") || has("a40") || has("l4") || has("l40"))
      return {{128, "Ampere GA10x/Ada: 128 FP32 lanes per SM"}};
    return std::nullopt;
  }
  if (!d.isGpu && platform.find("portable computing language") != std::string::npos) {
    if (has("avx512")) return {{32, "PoCL CPU: AVX-512 16 lanes x 2 FMA units per core"}};
    if (has("avx2") || has("haswell") || has("skylake") || has("zen"))
      return {{16, "PoCL CPU: AVX2 8 lanes x 2 FMA units per core"}};
  }
  return std::nullopt;
}

// Two shapes of the same work, because devices differ in what they fill their lanes with: GPUs run one
// work-item per lane (fma_scalar: 8 independent chains each), PoCL's CPU device vectorises float16 types
// (fma_vector: 8 chains of 16 lanes). The probe reports the faster.
constexpr const char* kFmaProbeSource = R"CLC(
__kernel void fma_scalar(__global float* out, const float a, const float b, const int iters) {
  const size_t gid = get_global_id(0);
  float x0 = (float)gid * 1e-9f, x1 = x0 + 0.1f, x2 = x0 + 0.2f, x3 = x0 + 0.3f;
  float x4 = x0 + 0.4f, x5 = x0 + 0.5f, x6 = x0 + 0.6f, x7 = x0 + 0.7f;
  for (int i = 0; i < iters; ++i) {
    x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);
    x4 = fma(x4, a, b); x5 = fma(x5, a, b); x6 = fma(x6, a, b); x7 = fma(x7, a, b);
  }
  out[gid] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

__kernel void fma_vector(__global float* out, const float a, const float b, const int iters) {
  const size_t gid = get_global_id(0);
  const float16 va = (float16)(a), vb = (float16)(b);
  float16 x0 = (float16)((float)gid * 1e-9f), x1 = x0 + 0.1f, x2 = x0 + 0.2f, x3 = x0 + 0.3f;
  float16 x4 = x0 + 0.4f, x5 = x0 + 0.5f, x6 = x0 + 0.6f, x7 = x0 + 0.7f;
  for (int i = 0; i < iters; ++i) {
    x0 = fma(x0, va, vb); x1 = fma(x1, va, vb); x2 = fma(x2, va, vb); x3 = fma(x3, va, vb);
    x4 = fma(x4, va, vb); x5 = fma(x5, va, vb); x6 = fma(x6, va, vb); x7 = fma(x7, va, vb);
  }
  const float16 s = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
  const float8 h = s.lo + s.hi;
  const float4 q = h.lo + h.hi;
  out[gid] = q.x + q.y + q.z + q.w;
}
)CLC";

/// Achieved FP32 FMA throughput in GFLOP/s: enough work-items to fill the device, iterations grown until one
/// launch takes >= 20 ms, best of 3, the faster of the scalar and vector kernels.
double fmaProbeGflops(Context& ctx) {
  const cl::Program program = ctx.buildProgram(kFmaProbeSource, "", "fma_probe");
  const size_t global = static_cast<size_t>(std::max(ctx.device().computeUnits, 1)) * 2048;
  cl::Buffer out(ctx.context(), CL_MEM_WRITE_ONLY, global * sizeof(float));
  double best = 0;
  for (const auto& [name, lanes] : {std::pair<const char*, int>{"fma_scalar", 1}, {"fma_vector", 16}}) {
    cl::Kernel kernel(program, name);
    kernel.setArg(0, out);
    kernel.setArg(1, 0.999f);
    kernel.setArg(2, 0.001f);
    auto runMs = [&](int iters) {
      kernel.setArg(3, iters);
      cl::Event ev;
      ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NullRange, nullptr,
                                       &ev);
      ev.wait();
      return static_cast<double>(ev.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                 ev.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
             1e-6;
    };
    int iters = 16;
    double ms = runMs(iters);
    while (ms < 20.0 && iters < (1 << 22)) {
      iters = static_cast<int>(
          std::min<double>(1 << 22, iters * std::clamp(25.0 / std::max(ms, 1e-3), 2.0, 64.0)));
      ms = runMs(iters);
    }
    for (int i = 0; i < 2; ++i) ms = std::min(ms, runMs(iters));
    const double flops = static_cast<double>(global) * iters * 8 * lanes * 2;
    best = std::max(best, flops / (ms * 1e6));
  }
  return best;
}

DeviceReport deviceReport(Context& ctx, bool probe) {
  const DeviceInfo& d = ctx.device();
  DeviceReport r;
  r.spec = d.spec();
  r.name = d.name;
  r.platform = d.platformName;
  r.vendor = d.vendor;
  r.driver = d.driverVersion;
  r.openclVersion = d.openclVersion;
  r.isGpu = d.isGpu;
  r.computeUnits = d.computeUnits;
  r.clockMHz = d.clockMHz;
  r.globalMemBytes = d.globalMemBytes;
  r.maxAllocBytes = d.maxAllocBytes;
  if (auto lanes = lanesPerComputeUnit(d)) {
    r.theoreticalGflops = static_cast<double>(d.computeUnits) * d.clockMHz * 2.0 * lanes->first / 1000.0;
    r.theoreticalSource = std::to_string(d.computeUnits) + " CUs x " + std::to_string(d.clockMHz) +
                          " MHz x 2 x " + std::to_string(lanes->first) + " lanes (" + lanes->second + ")";
  }
  if (probe) {
    try {
      progress("measuring FP32 FMA throughput (probe kernel)");
      r.probeGflops = fmaProbeGflops(ctx);
    } catch (const std::exception& e) {
      printNote(std::string("FMA probe failed: ") + e.what());
    }
  }
  if (r.theoreticalGflops) {
    r.peakGflops = *r.theoreticalGflops;
    r.peakSource = "theoretical: " + r.theoreticalSource;
  } else if (r.probeGflops) {
    r.peakGflops = *r.probeGflops;
    r.peakSource = "measured: FMA probe kernel (lanes per compute unit unknown for this device)";
  } else {
    r.peakSource = "unknown";
  }
  return r;
}

// ---- OpenCV ---------------------------------------------------------------------------------------------

/// OpenCV picks its OpenCL device from env OPENCV_OPENCL_DEVICE ("<platform>:<GPU|CPU>:<index>"); point it
/// at the device we benchmark unless the user set it. Must run before OpenCV's first OpenCL call.
std::string pointOpenCVAt(const DeviceInfo& ours) {
  if (const char* env = std::getenv("OPENCV_OPENCL_DEVICE"); env && *env)
    return std::string(env) + " (from env)";
  if (ours.platformName.find(':') != std::string::npos) return "(default: platform name contains ':')";
  int index = 0;
  for (const auto& d : listDevices()) {
    if (d.platformIndex == ours.platformIndex && d.deviceIndex == ours.deviceIndex) break;
    if (d.platformName.find(ours.platformName) != std::string::npos && d.isGpu == ours.isGpu) ++index;
  }
  const std::string config =
      ours.platformName + ":" + (ours.isGpu ? "GPU" : "CPU") + ":" + std::to_string(index);
  ::setenv("OPENCV_OPENCL_DEVICE", config.c_str(), 1);
  return config;
}

OpenCVInfo setUpOpenCV(const DeviceInfo& ours, bool wantOpenCL) {
  OpenCVInfo info;
  info.version = CV_VERSION;
  info.threads = cv::getNumThreads();
  if (!wantOpenCL) {
    info.note = "OpenCV not run (--skip-opencv)";
    return info;
  }
  info.deviceConfig = pointOpenCVAt(ours);
  info.openclAvailable = cv::ocl::haveOpenCL();
  if (info.openclAvailable) {
    cv::ocl::setUseOpenCL(true);
    info.openclUsed = cv::ocl::useOpenCL();
    if (info.openclUsed) info.openclDevice = cv::ocl::Device::getDefault().name();
  }
  if (!info.openclAvailable)
    info.note = "this OpenCV has no OpenCL runtime: UMat variants skipped";
  else if (!info.openclUsed)
    info.note =
        "OpenCV could not open an OpenCL device for '" + info.deviceConfig + "': UMat variants skipped";
  else if (info.openclDevice != ours.name)
    info.note = "OpenCV's OpenCL device differs from ours";
  return info;
}

template <typename F>
Stats timeEach(int warmup, int iterations, F&& f) {
  for (int i = 0; i < warmup; ++i) f();
  std::vector<double> samples;
  for (int i = 0; i < iterations; ++i) {
    const auto t0 = Clock::now();
    f();
    samples.push_back(msSince(t0));
  }
  return Stats::of(samples);
}

template <typename F>
double loopMean(int iterations, F&& f) {
  cv::ocl::finish();
  const auto t0 = Clock::now();
  for (int i = 0; i < iterations; ++i) f();
  cv::ocl::finish();
  return msSince(t0) / iterations;
}

/// The CPU variants first (per-channel also gives the expected output), the OpenCL ones after ours.
struct OpenCVRun {
  const FilterSet& filter;
  std::array<cv::Mat, kChannels> kernels;
  const OpenCVInfo& info;
  const BenchOptions& opts;
  Size size;
  cv::Mat src;

  OpenCVResult base(const std::string& variant, const std::string& device, bool transfers) const {
    OpenCVResult r;
    r.variant = variant;
    r.size = size.label();
    r.width = size.width;
    r.height = size.height;
    r.device = device;
    r.transfers = transfers;
    r.status = "ok";
    return r;
  }

  std::vector<OpenCVResult> cpu(cv::Mat& expected) const {
    const std::string dev = "CPU (" + std::to_string(info.threads) + " threads)";
    OpenCVResult perCh = base("cv_cpu_per_channel", dev, false),
                 single = base("cv_cpu_single_filter", dev, false);
    cv::Mat dst;
    perCh.ms = timeEach(opts.warmup, opts.iterations, [&] { filter2DPerChannel(src, dst, filter, kernels); });
    expected = dst.clone();
    single.ms = timeEach(opts.warmup, opts.iterations, [&] { filter2DSingle(src, dst, filter, kernels); });
    return {perCh, single};
  }

  std::vector<OpenCVResult> opencl() const {
    std::vector<OpenCVResult> out;
    const std::string dev = info.openclDevice;
    cv::UMat usrc, udst;
    cv::Mat host;
    src.copyTo(usrc);
    auto perChannel = [&] { filter2DPerChannel(usrc, udst, filter, kernels); };
    auto single = [&] { filter2DSingle(usrc, udst, filter, kernels); };
    for (const auto& entry :
         {std::pair<std::string, std::function<void()>>{"cv_ocl_per_channel", perChannel},
          std::pair<std::string, std::function<void()>>{"cv_ocl_single_filter", single}}) {
      // Not a structured binding: clang 14 cannot capture one in the lambdas below.
      const std::string& name = entry.first;
      const std::function<void()>& run = entry.second;
      OpenCVResult dev_only = base(name, dev, false);
      dev_only.ms = timeEach(opts.warmup, opts.iterations, [&] {
        run();
        cv::ocl::finish();
      });
      dev_only.loopMeanMs = loopMean(opts.iterations, run);
      OpenCVResult withTransfers = base(name + "_transfers", dev, true);
      withTransfers.ms = timeEach(opts.warmup, opts.iterations, [&] {
        src.copyTo(usrc);  // upload
        run();
        udst.copyTo(host);  // download (blocks until done)
        cv::ocl::finish();
      });
      out.push_back(dev_only);
      out.push_back(withTransfers);
    }
    return out;
  }
};

// ---- ours -----------------------------------------------------------------------------------------------

bool fellBack(const std::string& requested, const std::string& active) {
  return requested == "auto" ? active.rfind("auto", 0) != 0 : active != requested;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : "; ") + x;
  return s;
}

/// The end-to-end paths that matter for a live source: one frame from pinned host memory, and a stream
/// of frames whose copies overlap the kernels of other frames.
void measureTransfers(const std::shared_ptr<Context>& ctx, Engine& engine, const std::string& name,
                      const FilterSet& filter, const Image& frame, const BenchOptions& opts,
                      StrategyResult& r) {
  try {
    MutableImageView in = engine.stagingInput(frame.width, frame.height);
    MutableImageView out = engine.stagingOutput(frame.width, frame.height);
    for (int y = 0; y < frame.height; ++y)
      std::copy(frame.view().row(y), frame.view().row(y) + frame.width * kBytesPerPixel, in.row(y));
    std::vector<double> host, device;
    for (int i = 0; i < opts.warmup + opts.iterations; ++i) {
      const FrameTimings t = engine.process(in, out);
      if (i < opts.warmup) continue;
      host.push_back(t.hostMs);
      device.push_back(t.uploadMs + t.kernelMs + t.downloadMs);
    }
    r.pinnedFrame = Stats::of(host);
    r.pinnedDevice = Stats::of(device);
    if (opts.streamFrames > 0) {
      FrameStream stream(ctx, name, filter, frame.width, frame.height, 3);
      for (int slot = 0; slot < 3; ++slot) {
        MutableImageView dst = stream.nextInput();
        for (int y = 0; y < frame.height; ++y)
          std::copy(frame.view().row(y), frame.view().row(y) + frame.width * kBytesPerPixel, dst.row(y));
        stream.submit();
      }
      stream.finish();
      r.streamFps = stream.measureThroughput(opts.streamFrames);
    }
  } catch (const Error& e) {
    r.notices.push_back(std::string("pinned/stream measurement failed: ") + e.what());
  }
}

/// Device-side throughput without transfers: N launches back to back on device buffers, for the default
/// variant or (--variants) every tuning variant of the strategy.
std::vector<LoopTiming> measureLoops(const std::shared_ptr<Context>& ctx, const std::string& name,
                                     const FilterSet& filter, const Image& frame, const BenchOptions& opts) {
  std::vector<LoopTiming> out;
  if (opts.kernelLoop <= 0 || name == "auto") return out;
  std::vector<std::string> variants{""};
  if (opts.variants) variants = createStrategy(name)->tuningVariants(*ctx, filter);
  const size_t bytes = static_cast<size_t>(frame.width) * frame.height * kBytesPerPixel;
  cl::Buffer in(ctx->context(), CL_MEM_READ_ONLY, bytes), dst(ctx->context(), CL_MEM_READ_WRITE, bytes);
  ctx->queue().enqueueWriteBuffer(in, CL_TRUE, 0, bytes, frame.pixels.data());
  const FrameBuffers buffers{in, dst, frame.width, frame.height};
  for (const auto& variant : variants) {
    LoopTiming t;
    t.variant = variant;
    try {
      auto strategy = createStrategy(name);
      strategy->setTuningVariant(variant);
      strategy->prepare(*ctx, filter, frame.width, frame.height);
      for (int i = 0; i < 3; ++i) strategy->enqueue(*ctx, buffers, {});
      ctx->queue().finish();
      std::vector<std::vector<NamedEvent>> launches;
      launches.reserve(static_cast<size_t>(opts.kernelLoop));
      const auto t0 = Clock::now();
      for (int i = 0; i < opts.kernelLoop; ++i) launches.push_back(strategy->enqueue(*ctx, buffers, {}));
      ctx->queue().finish();
      t.wallMs = msSince(t0) / opts.kernelLoop;
      std::vector<double> each;
      for (const auto& l : launches) {
        double ms = 0;
        for (const auto& e : l)
          ms += static_cast<double>(e.event.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                    e.event.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
                1e-6;
        each.push_back(ms);
      }
      const Stats st = Stats::of(each);
      t.eventMs = st.median;
      t.minEventMs = st.min;
      t.spanMs =
          static_cast<double>(launches.back().back().event.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                              launches.front().front().event.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
          1e-6 / opts.kernelLoop;
      t.status = "ok";
    } catch (const std::exception& e) {
      t.status = std::string("failed: ") + e.what();
    }
    progress(frame.width > 0 ? Size{frame.width, frame.height}.label() + " " + name + " loop " +
                                   (variant.empty() ? "(default)" : variant) + ": " +
                                   (t.status == "ok" ? "event " + fmt(t.eventMs, 4) + " ms, span " +
                                                           fmt(t.spanMs, 4) + " ms/launch"
                                                     : t.status)
                             : "");
    out.push_back(std::move(t));
  }
  return out;
}

/// What a launch costs with no work: an empty kernel over one work-group and over a 1080p-like grid, and a
/// device-to-device copy of one frame (the memory floor of reading and writing it once).
nlohmann::json measureLaunchFloor(Context& ctx, Size size, int n) {
  static const char* kSource = "__kernel void empty(__global uchar* p) {}\n";
  cl::Kernel kernel(ctx.buildProgram(kSource, "", "empty_probe"), "empty");
  const size_t bytes = static_cast<size_t>(size.width) * size.height * kBytesPerPixel;
  cl::Buffer a(ctx.context(), CL_MEM_READ_WRITE, bytes), b(ctx.context(), CL_MEM_READ_WRITE, bytes);
  kernel.setArg(0, a);
  auto time = [&](const std::function<cl::Event()>& launch) {
    for (int i = 0; i < 3; ++i) launch();
    ctx.queue().finish();
    std::vector<cl::Event> ev;
    for (int i = 0; i < n; ++i) ev.push_back(launch());
    ctx.queue().finish();
    std::vector<double> each;
    for (auto& e : ev)
      each.push_back(static_cast<double>(e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                         e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
                     1e-6);
    const double span = static_cast<double>(ev.back().getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                            ev.front().getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
                        1e-6 / n;
    return nlohmann::json{{"event_ms_median", Stats::of(each).median}, {"span_ms_per_launch", span}};
  };
  auto nd = [&](size_t gx, size_t gy, size_t lx, size_t ly) {
    return [&ctx, &kernel, gx, gy, lx, ly] {
      cl::Event e;
      ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(gx, gy), cl::NDRange(lx, ly),
                                       nullptr, &e);
      return e;
    };
  };
  const size_t gx = roundUpTo((static_cast<size_t>(size.width) + 3) / 4, 32);
  const size_t gy = roundUpTo((static_cast<size_t>(size.height) + 15) / 16, 2);
  return {{"size", size.label()},
          {"empty_one_group", time(nd(32, 2, 32, 2))},
          {"empty_frame_grid", time(nd(gx, gy, 32, 2))},
          {"copy_frame", time([&] {
             cl::Event e;
             ctx.queue().enqueueCopyBuffer(a, b, 0, 0, bytes, nullptr, &e);
             return e;
           })},
          {"frame_bytes", bytes}};
}

StrategyResult runStrategy(const std::shared_ptr<Context>& ctx, const std::string& name,
                           const FilterSet& filter, const std::string& filterLabel, const Image& frame,
                           const BenchOptions& opts, const std::optional<cv::Mat>& expected,
                           double peakGflops) {
  StrategyResult r;
  r.strategy = name;
  r.width = frame.width;
  r.height = frame.height;
  r.size = Size{frame.width, frame.height}.label();
  r.filter = filterLabel;
  if (auto reason = createStrategy(name)->unsupportedReason(*ctx, filter)) {
    r.status = "skipped";
    r.reason = *reason;
    return r;
  }
  Engine engine(ctx, name);
  engine.setFilter(filter);
  Image out(frame.width, frame.height);
  std::vector<double> kernel, upload, download, host;
  std::map<std::string, std::vector<double>> stages;
  std::vector<std::string> stageOrder;
  try {
    for (int i = 0; i < std::max(opts.warmup, 1); ++i) engine.process(frame.view(), out.mutableView());
    r.active = engine.activeStrategy();
    r.notices = engine.takeNotices();
    if (fellBack(name, r.active)) {
      r.status = "failed";
      r.reason = "the engine ran '" + r.active + "' instead: " + joined(r.notices);
      return r;
    }
    for (int i = 0; i < opts.iterations; ++i) {
      const FrameTimings t = engine.process(frame.view(), out.mutableView());
      kernel.push_back(t.kernelMs);
      upload.push_back(t.uploadMs);
      download.push_back(t.downloadMs);
      host.push_back(t.hostMs);
      for (size_t s = 1; s + 1 < t.stages.size(); ++s) {
        if (!stages.count(t.stages[s].name)) stageOrder.push_back(t.stages[s].name);
        stages[t.stages[s].name].push_back(t.stages[s].ms);
      }
    }
    for (auto& n : engine.takeNotices()) r.notices.push_back(n);
    if (fellBack(name, engine.activeStrategy())) {
      r.status = "failed";
      r.reason = "failed while timing, the engine switched to '" + engine.activeStrategy() +
                 "': " + joined(r.notices);
      return r;
    }
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::BadInput) throw;  // e.g. the frame exceeds the device's allocation limit
    r.status = "failed";
    r.reason = e.what();
    return r;
  }
  r.status = "ok";
  r.kernel = Stats::of(kernel);
  r.upload = Stats::of(upload);
  r.download = Stats::of(download);
  r.frame = Stats::of(host);
  for (const auto& s : stageOrder) r.stageMedians.emplace_back(s, Stats::of(stages[s]).median);
  const double pixels = static_cast<double>(frame.width) * frame.height;
  const double k = filter.size();
  if (r.kernel.median > 0) {
    r.mpixPerS = pixels / (r.kernel.median * 1e3);
    r.gflops = 2.0 * k * k * kChannels * pixels / (r.kernel.median * 1e6);
    if (peakGflops > 0) r.peakFraction = r.gflops / peakGflops;
  }
  if (expected) r.maxAbsDiff = maxAbsDiff(out, *expected);
  measureTransfers(ctx, engine, name, filter, frame, opts, r);
  r.loops = measureLoops(ctx, name, filter, frame, opts);
  return r;
}

void fillComparisons(std::vector<OpenCVResult>& cv, const std::vector<StrategyResult>& ours,
                     const std::string& size) {
  const StrategyResult* bestKernel = nullptr;
  const StrategyResult* bestFrame = nullptr;
  for (const auto& r : ours) {
    if (r.size != size || r.status != "ok") continue;
    if (!bestKernel || r.kernel.median < bestKernel->kernel.median) bestKernel = &r;
    if (!bestFrame || r.frame.median < bestFrame->frame.median) bestFrame = &r;
  }
  for (auto& c : cv) {
    if (c.size != size || c.status != "ok" || !bestKernel) continue;
    // Device-only OpenCL runs compare with our kernel time; runs that include transfers (and the CPU, where
    // the data never moves) with our whole frame.
    const bool deviceOnly = !c.transfers && c.variant.rfind("cv_ocl", 0) == 0;
    const StrategyResult* best = deviceOnly ? bestKernel : bestFrame;
    c.oursStrategy = best->active.empty() ? best->strategy : best->active;
    c.oursMetric = deviceOnly ? "kernel_ms_median" : "frame_ms_median";
    c.oursMs = deviceOnly ? best->kernel.median : best->frame.median;
    if (c.oursMs > 0) c.speedup = c.ms.median / c.oursMs;
  }
}

// ---- soak -----------------------------------------------------------------------------------------------

long rssKiB() {
  std::ifstream statm("/proc/self/statm");
  long size = 0, resident = 0;
  statm >> size >> resident;
  return resident * (::sysconf(_SC_PAGESIZE) / 1024);
}

SoakReport runSoak(const std::shared_ptr<Context>& ctx, const std::string& strategy, const FilterSet& filter,
                   Size size, int frames) {
  SoakReport s;
  s.strategy = strategy;
  s.size = size.label();
  s.frames = frames;
  const Image in = randomFrame(size);
  Image out(size.width, size.height);
  // The per-frame times are allocated and touched before the first RSS reading, so the growth reported
  // is the engine's alone (push_back would add 8 bytes a frame of the measurement's own).
  std::vector<double> host(static_cast<size_t>(frames), 0.0);
  s.rssStartKiB = rssKiB();
  Engine engine(ctx, strategy);
  engine.setFilter(filter);
  host[0] = engine.process(in.view(), out.mutableView()).hostMs;
  s.rssAfterFirstKiB = rssKiB();
  const int step = std::max(frames / 10, 1);
  for (int i = 1; i < frames; ++i) {
    host[static_cast<size_t>(i)] = engine.process(in.view(), out.mutableView()).hostMs;
    if ((i + 1) % step == 0)
      progress("soak " + std::to_string(i + 1) + "/" + std::to_string(frames) + " frames, RSS " +
               std::to_string(rssKiB()) + " KiB");
  }
  s.rssEndKiB = rssKiB();
  s.growthKiB = s.rssEndKiB - s.rssAfterFirstKiB;
  s.active = engine.activeStrategy();
  s.notices = engine.takeNotices();
  s.frame = Stats::of(host);
  return s;
}

// ---- the command ----------------------------------------------------------------------------------------

void checkWritable(const std::string& file, const char* option) {
  if (file.empty()) return;
  const fs::path p(file);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw Error(ErrorKind::BadInput,
                std::string(option) + " '" + file + "': folder '" + dir.string() + "' does not exist");
}

std::vector<std::string> chosenStrategies(const std::vector<std::string>& requested) {
  std::vector<std::string> out;
  for (const auto& s : requested) {
    if (s == "all") {
      for (const auto& n : strategyNames())
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
      continue;
    }
    createStrategy(s);  // Error(Usage) listing the names when unknown
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

int runBench(const BenchOptions& o) {
  if (o.ksize % 2 == 0) throw Error(ErrorKind::Usage, "--ksize " + std::to_string(o.ksize) + ": must be odd");
  checkWritable(o.json, "--json");
  checkWritable(o.markdown, "--markdown");
  std::vector<Size> sizes;
  for (const auto& s : o.sizes) sizes.push_back(parseSize(s));
  if (sizes.empty())
    sizes = o.soak > 0 ? std::vector<Size>{{640, 480}} : std::vector<Size>{{1920, 1080}, {3840, 2160}};
  const std::vector<std::string> strategies = chosenStrategies(o.strategies);

  std::string filterDescription;
  FilterSet filter = benchFilter(o.filter, o.ksize, filterDescription);
  if (!o.border.empty()) filter = filter.withBorder(*parseBorder(o.border));
  const std::string filterLabel =
      o.filter == "random" || o.filter == "gaussian" ? o.filter : fs::path(o.filter).stem().string();

  auto ctx = std::make_shared<Context>(o.device);
  BenchReport report;
  report.config = {{"filter", filterLabel},
                   {"filter_description", filterDescription},
                   {"k", filter.size()},
                   {"border", std::string(borderName(filter.border()))},
                   {"iterations", o.iterations},
                   {"warmup", o.warmup},
                   {"seed", kSeed},
                   {"flops_per_pixel", 2 * filter.size() * filter.size() * kChannels}};
  progress("device " + ctx->device().spec() + " " + ctx->device().describe());

  if (o.soak > 0) {
    report.device = deviceReport(*ctx, false);
    const std::string strategy = strategies.size() == strategyNames().size() ? "auto" : strategies.front();
    report.config["soak_frames"] = o.soak;
    progress("soak: " + std::to_string(o.soak) + " frames of " + sizes.front().label() + " through '" +
             strategy + "'");
    report.soak = runSoak(ctx, strategy, filter, sizes.front(), o.soak);
    for (const auto& n : report.soak->notices) printNote(n);
  } else {
    report.device = deviceReport(*ctx, !o.skipProbe);
    if (report.device.probeGflops)
      progress("FMA probe: " + fmt(*report.device.probeGflops, 1) + " GFLOP/s; peak used: " +
               fmt(report.device.peakGflops, 1) + " GFLOP/s (" + report.device.peakSource + ")");
    report.opencvInfo = setUpOpenCV(ctx->device(), !o.skipOpenCV);
    if (!report.opencvInfo.note.empty()) printNote(report.opencvInfo.note);
    const auto cvReason = opencvUnsupportedReason(filter);
    if (cvReason && !o.skipOpenCV) printNote("OpenCV skipped: " + *cvReason);

    for (const Size& size : sizes) {
      // The device's allocation limit first: a frame it cannot hold is a usage error, not 12 GiB of host
      // memory and a failure later.
      const std::uint64_t frameBytes =
          static_cast<std::uint64_t>(size.width) * static_cast<std::uint64_t>(size.height) * kBytesPerPixel;
      if (frameBytes > ctx->device().maxAllocBytes)
        throw Error(ErrorKind::BadInput, "--size " + size.label() + ": a frame of " +
                                             std::to_string(frameBytes >> 20) + " MiB exceeds the device's " +
                                             std::to_string(ctx->device().maxAllocBytes >> 20) +
                                             " MiB allocation limit");
      if (o.kernelLoop > 0) {
        try {
          report.launchFloor.push_back(measureLaunchFloor(*ctx, size, o.kernelLoop));
          progress(size.label() + " launch floor: " + report.launchFloor.back().dump());
        } catch (const std::exception& e) {
          printNote(std::string("launch floor probe failed: ") + e.what());
        }
      }
      const Image frame = randomFrame(size);
      OpenCVRun cvRun{filter, channelKernels(filter), report.opencvInfo, o, size, asMat(frame)};
      std::optional<cv::Mat> expected;
      std::vector<OpenCVResult> cvResults;
      if (!o.skipOpenCV && !cvReason) {
        progress(size.label() + " OpenCV filter2D on the CPU");
        cv::Mat e;
        cvResults = cvRun.cpu(e);
        expected = e;
      } else if (static_cast<double>(size.width) * size.height <= 4e6) {
        Image ref(size.width, size.height);
        referenceConvolve(frame.view(), ref.mutableView(), filter);
        expected = asMat(ref).clone();
      }

      for (const auto& name : strategies) {
        StrategyResult r =
            runStrategy(ctx, name, filter, filterLabel, frame, o, expected, report.device.peakGflops);
        if (r.status == "ok")
          progress(size.label() + " " + name + (r.active != name ? " (" + r.active + ")" : "") + ": kernel " +
                   fmt(r.kernel.median) + " ms (p95 " + fmt(r.kernel.p95) + "), frame " +
                   fmt(r.frame.median) + " ms, " + fmt(r.mpixPerS, 1) + " Mpix/s, " + fmt(r.gflops, 1) +
                   " GFLOP/s" + (r.maxAbsDiff ? ", max diff " + std::to_string(*r.maxAbsDiff) : ""));
        else
          progress(size.label() + " " + name + ": " + r.status + ": " + r.reason);
        if (name == "auto")
          report.autoChoice.emplace_back(size.label(),
                                         r.active.empty() ? r.status + ": " + r.reason : r.active);
        report.results.push_back(std::move(r));
      }

      if (!o.skipOpenCV && !cvReason && report.opencvInfo.openclUsed) {
        progress(size.label() + " OpenCV filter2D through OpenCL (" + report.opencvInfo.openclDevice + ")");
        for (auto& r : cvRun.opencl()) cvResults.push_back(std::move(r));
      }
      fillComparisons(cvResults, report.results, size.label());
      for (auto& r : cvResults) report.opencv.push_back(std::move(r));
    }
  }

  const std::string markdown = toMarkdown(report);
  if (!o.json.empty()) writeFileAtomically(o.json, toJson(report).dump(2) + "\n", true);
  if (!o.markdown.empty()) writeFileAtomically(o.markdown, markdown, true);
  if (!o.quiet) std::cout << markdown;
  return kExitOk;
}

}  // namespace

Stats Stats::of(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  s.p95 = v[static_cast<size_t>(std::ceil(0.95 * static_cast<double>(n))) - 1];
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(n);
  s.min = v.front();
  return s;
}

void addBenchCommand(CLI::App& app, Action& action) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "Time every strategy on synthetic frames against OpenCV's filter2D (CPU and OpenCL).");
  cmd->add_option("--size", o->sizes,
                  "Frame size WxH; repeat or separate with commas (default 1920x1080,3840x2160; "
                  "640x480 with --soak)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("-s,--strategy", o->strategies, "Strategy name(s) or 'all'; repeat or separate with commas")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->capture_default_str();
  cmd->add_option("-f,--filter", o->filter,
                  "'random' (dense per-channel 7x7), 'gaussian' (rank-1 7x7) or a file")
      ->capture_default_str();
  cmd->add_option("-b,--border", o->border, "Override the filter's border mode")
      ->check(CLI::IsMember({"replicate", "reflect", "reflect101", "wrap", "constant"}));
  cmd->add_option("-d,--device", o->device,
                  "OpenCL device: gpu, cpu, P:D or a name substring (see `devices`)");
  cmd->add_option("-n,--iterations", o->iterations, "Timed frames per strategy and size")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("-w,--warmup", o->warmup,
                  "Untimed frames first (at least 1 for ours: it builds the kernels)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  cmd->add_option("--json", o->json, "Write the results as JSON (docs/CLI.md)");
  cmd->add_option("--markdown", o->markdown, "Write the results as Markdown tables");
  cmd->add_option("--soak", o->soak,
                  "Instead: push N frames through one strategy and report memory (RSS) growth")
      ->check(CLI::Range(1, 100000000));
  cmd->add_option(
         "--stream-frames", o->streamFrames,
         "Frames pushed through the overlapped upload/kernel/download pipeline per strategy (0: skip)")
      ->check(CLI::Range(0, 100000000))
      ->capture_default_str();
  cmd->add_option("-k,--ksize", o->ksize, "K of the built-in 'random' and 'gaussian' filters")
      ->check(CLI::Range(1, 31))
      ->capture_default_str();
  cmd->add_option("--kernel-loop", o->kernelLoop,
                  "Also time N back-to-back launches per strategy on device buffers, plus the launch floor "
                  "(empty kernel, frame copy)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  cmd->add_flag("--variants", o->variants, "With --kernel-loop: every tuning variant, not only the default");
  cmd->add_flag("--skip-opencv", o->skipOpenCV, "Do not run OpenCV's filter2D");
  cmd->add_flag("--skip-probe", o->skipProbe,
                "Do not run the FMA probe kernel (peak from the device name only)");
  cmd->add_flag("-q,--quiet", o->quiet, "Do not print the Markdown report on stdout");
  cmd->callback([o, &action] { action = [o] { return runBench(*o); }; });
}

}  // namespace convolab::cli
