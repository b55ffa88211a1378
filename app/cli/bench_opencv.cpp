// SPDX-License-Identifier: MIT
// `bench`'s OpenCV runs: cv::filter2D on the CPU and through OpenCV's OpenCL, timed like ours.
#include "bench_opencv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <opencv2/core/ocl.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "cv/filter2d.hpp"

namespace convolab::cli::bench {
namespace {

using opencv::filter2DPerChannel;
using opencv::filter2DSingle;

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

/// A variant's calls within a time budget: as asked (warm-up, then timed), unless its first call says those
/// would take longer than opts.opencvBudget; then fewer, the first call being the warm-up, at least one timed
/// (whose time, free of the first call's build, sets how many more fit).
/// OpenCV's OpenCL filter2D on PoCL takes 2.9 s a call at 1080p K = 31 and 14 s at K = 63 (this 2-core
/// machine), where -n 50 was a run of half an hour per variant (docs/CLI.md, --opencv-budget).
class Budgeted {
 public:
  Budgeted(const BenchOptions& opts, OpenCVResult& result) : m_opts(opts), m_result(result) {}

  template <typename F>
  Stats timeEach(F&& f) {
    std::vector<double> samples;
    const double first = timed(f);
    if (m_opts.warmup == 0) samples.push_back(first);
    int warm = std::max(0, m_opts.warmup - 1);
    int left = m_opts.iterations - static_cast<int>(samples.size());
    double spent = first;
    if (first * (warm + left) > budgetMs() - spent) {
      // Over: no more warm-up, and the count from a second call (the first may include OpenCV's build).
      warm = 0;
      if (samples.empty()) {
        samples.push_back(timed(f));
        spent += samples.back();
        --left;
      }
      left = callsIn(budgetMs() - spent, samples.back(), left);
    }
    for (int i = 0; i < warm; ++i) f();
    for (int i = 0; i < left; ++i) samples.push_back(timed(f));
    m_result.samples = static_cast<int>(samples.size());
    const Stats stats = Stats::of(samples);
    if (m_result.samples < m_opts.iterations) {
      const double call = stats.median;
      m_result.reason = std::to_string(m_result.samples) + " of " + std::to_string(m_opts.iterations) +
                        " timed calls (a call took " +
                        (call >= 1000 ? fmt(call / 1000.0, 1) + " s" : fmt(call, 1) + " ms") +
                        "; --opencv-budget " + budgetText() + " s)";
      progress(m_result.size + " " + m_result.variant + ": " + m_result.reason);
    }
    return stats;
  }

  /// Mean of N calls between two cv::ocl::finish(), N = the timed calls that fit the budget at `callMs`
  /// each; none when fewer than two fit (one call is what timeEach measured already).
  template <typename F>
  std::optional<double> loopMean(double callMs, F&& f) {
    const int n = callsIn(budgetMs(), callMs, m_opts.iterations);
    if (n < 2) return std::nullopt;
    cv::ocl::finish();
    const auto t0 = Clock::now();
    for (int i = 0; i < n; ++i) f();
    cv::ocl::finish();
    return msSince(t0) / n;
  }

 private:
  double budgetMs() const { return m_opts.opencvBudget * 1000.0; }
  /// The budget as given: 0.5 stays "0.5" (fmt(v, 0) printed "0"), 20 "20".
  std::string budgetText() const {
    std::ostringstream out;
    out << m_opts.opencvBudget;
    return out.str();
  }
  /// Calls of callMs that fit in ms, 0 to cap (in double first: a budget of a day over a call of microseconds
  /// is beyond int).
  static int callsIn(double ms, double callMs, int cap) {
    return static_cast<int>(
        std::clamp(std::floor(ms / std::max(callMs, 1e-6)), 0.0, static_cast<double>(cap)));
  }
  template <typename F>
  static double timed(F&& f) {
    const auto t0 = Clock::now();
    f();
    return msSince(t0);
  }
  const BenchOptions& m_opts;
  OpenCVResult& m_result;
};

}  // namespace

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

OpenCVResult OpenCVRun::base(const std::string& variant, const std::string& device, bool transfers) const {
  OpenCVResult r;
  r.variant = variant;
  r.size = size.label();
  r.width = size.width;
  r.height = size.height;
  r.k = filter.size();
  r.device = device;
  r.transfers = transfers;
  r.status = "ok";
  return r;
}

std::vector<OpenCVResult> OpenCVRun::cpu(cv::Mat& expected) const {
  const std::string dev = "CPU (" + std::to_string(info.threads) + " threads)";
  OpenCVResult perCh = base("cv_cpu_per_channel", dev, false),
               single = base("cv_cpu_single_filter", dev, false);
  cv::Mat dst;
  perCh.ms = Budgeted(opts, perCh).timeEach([&] { filter2DPerChannel(src, dst, filter, kernels); });
  expected = dst.clone();
  single.ms = Budgeted(opts, single).timeEach([&] { filter2DSingle(src, dst, filter, kernels); });
  return {perCh, single};
}

std::vector<OpenCVResult> OpenCVRun::opencl() const {
  std::vector<OpenCVResult> out;
  const std::string dev = info.openclDevice;
  cv::UMat usrc, udst;
  cv::Mat host;
  src.copyTo(usrc);
  auto perChannel = [&] { filter2DPerChannel(usrc, udst, filter, kernels); };
  auto single = [&] { filter2DSingle(usrc, udst, filter, kernels); };
  for (const auto& variant :
       {std::pair<std::string, std::function<void()>>{"cv_ocl_per_channel", perChannel},
        std::pair<std::string, std::function<void()>>{"cv_ocl_single_filter", single}}) {
    // Named copies, not a structured binding: C++20 lambdas may capture those, clang 14 cannot.
    const std::string& name = variant.first;
    const std::function<void()>& run = variant.second;
    OpenCVResult dev_only = base(name, dev, false);
    Budgeted devBudget(opts, dev_only);
    dev_only.ms = devBudget.timeEach([&] {
      run();
      cv::ocl::finish();
    });
    dev_only.loopMeanMs = devBudget.loopMean(dev_only.ms.median, run);
    OpenCVResult withTransfers = base(name + "_transfers", dev, true);
    withTransfers.ms = Budgeted(opts, withTransfers).timeEach([&] {
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

}  // namespace convolab::cli::bench
