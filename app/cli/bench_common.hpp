// SPDX-License-Identifier: MIT
// `bench`'s shared parts: its options, frame sizes, the synthetic frame and filters, timing and progress
// lines.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

#include "convolab/filter.hpp"
#include "convolab/filter_chain.hpp"
#include "convolab/image.hpp"

namespace convolab::cli::bench {

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
  double latency = 0;      ///< --latency SECONDS: the app's live path instead (0: off)
  double latencyFps = 30;  ///< --latency-fps: the producer's frame rate
  double latencyEdits =
      0;  ///< --latency-edits MS: a filter edit every MS ms (0: none), edit -> display timed
  int streamFrames = 200;
  bool skipOpenCV = false;
  bool skipProbe = false;
  bool quiet = false;
  int ksize = 7;                    ///< K of the built-in random and gaussian filters
  int kernelLoop = 0;               ///< back-to-back launches per strategy on device buffers (0: skip)
  bool variants = false;            ///< with kernelLoop: every tuning variant, not only the default
  std::vector<std::string> ksweep;  ///< --ksweep: K values or ranges A:B[:STEP] (bench_ksweep.hpp)
  double ksweepBudget = 60;         ///< --ksweep-budget SECONDS: a row over it is not run at larger K
  double opencvBudget = 20;         ///< --opencv-budget SECONDS: each OpenCV variant's calls fit in about it
};

struct Size {
  int width = 0, height = 0;
  std::string label() const { return std::to_string(width) + "x" + std::to_string(height); }
};

/// Milliseconds since `t0`.
double msSince(Clock::time_point t0);
/// `v` with `digits` decimals.
std::string fmt(double v, int digits = 3);
/// One "bench: …" progress line on stderr.
void progress(const std::string& line);
/// Smallest multiple of `m` that is >= v.
std::size_t roundUpTo(std::size_t v, std::size_t m);

/// "WIDTHxHEIGHT"; Error(Usage) otherwise or outside 1..65536.
Size parseSize(const std::string& text);
/// "random": dense per-channel KxK (positive weights, divisor = their sum; full rank). "gaussian": the
/// rank-1 binomial KxK. Anything else is a filter file. `description` says which, for the report.
FilterSet benchFilter(const std::string& spec, int k, std::string& description);
/// benchFilter's built-ins as one-step chains; a file through loadFilterChainFile, so a chain file
/// (docs/FILTER_FORMAT.md, Chains) benchmarks as a chain.
FilterChain benchChain(const std::string& spec, int k, std::string& description);
/// Multiply-adds ×2 per pixel of a chain's switched-on steps (a magnitude counts both filters).
double chainFlopsPerPixel(const FilterChain& chain);
/// A frame of seeded random pixels (the same for the same size on every run).
Image randomFrame(Size s);
/// Largest per-channel difference between an RGB image and a CV_8UC3 Mat of the same size.
int maxAbsDiff(const Image& a, const cv::Mat& b);

}  // namespace convolab::cli::bench
