// SPDX-License-Identifier: MIT
// `bench`'s OpenCV runs: cv::filter2D on the CPU (Mat) and through OpenCV's OpenCL (UMat), and how each
// compares with our best strategy.
#pragma once

#include <array>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "bench_report.hpp"
#include "convolab/device.hpp"
#include "convolab/filter.hpp"

namespace convolab::cli::bench {

/// Points OpenCV's OpenCL at our device (unless OPENCV_OPENCL_DEVICE is set) and says what it got. Must run
/// before OpenCV's first OpenCL call. `wantOpenCL` false: OpenCV is not run at all (--skip-opencv).
OpenCVInfo setUpOpenCV(const DeviceInfo& ours, bool wantOpenCL);

/// The OpenCV variants at one size: the CPU ones first (per-channel also gives the expected output), the
/// OpenCL ones after ours.
struct OpenCVRun {
  const FilterSet& filter;
  std::array<cv::Mat, kChannels> kernels;
  const OpenCVInfo& info;
  const BenchOptions& opts;
  Size size;
  cv::Mat src;

  /// cv_cpu_per_channel and cv_cpu_single_filter; `expected` receives the per-channel output.
  std::vector<OpenCVResult> cpu(cv::Mat& expected) const;
  /// cv_ocl_per_channel and cv_ocl_single_filter, device only and with transfers.
  std::vector<OpenCVResult> opencl() const;

 private:
  OpenCVResult base(const std::string& variant, const std::string& device, bool transfers) const;
};

/// Fills each OpenCV result of `size` with our best strategy there: device-only OpenCL runs against our
/// kernel median, the others (CPU, with transfers) against our frame median.
void fillComparisons(std::vector<OpenCVResult>& cv, const std::vector<StrategyResult>& ours,
                     const std::string& size);

}  // namespace convolab::cli::bench
