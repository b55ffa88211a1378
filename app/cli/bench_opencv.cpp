// SPDX-License-Identifier: MIT
// `bench`'s OpenCV runs: cv::filter2D on the CPU and through OpenCV's OpenCL, timed like ours.
#include "bench_opencv.hpp"

#include <cstdlib>
#include <functional>
#include <opencv2/core/ocl.hpp>
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
  perCh.ms = timeEach(opts.warmup, opts.iterations, [&] { filter2DPerChannel(src, dst, filter, kernels); });
  expected = dst.clone();
  single.ms = timeEach(opts.warmup, opts.iterations, [&] { filter2DSingle(src, dst, filter, kernels); });
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
