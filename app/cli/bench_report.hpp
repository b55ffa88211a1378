// SPDX-License-Identifier: MIT
// The report of one `bench` run: what it measured (ours per strategy, OpenCV's filter2D, soak, latency) and
// how it is reported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "convolab/percentile.hpp"

namespace convolab::cli {

/// Median, 95th percentile (nearest rank), mean and minimum of a sample (the core's one definition).
using Stats = SampleStats;

struct DeviceReport {
  std::string spec, name, platform, vendor, driver, openclVersion;
  bool isGpu = false;
  int computeUnits = 0, clockMHz = 0;
  std::uint64_t globalMemBytes = 0, maxAllocBytes = 0;
  double peakGflops = 0;                    ///< the FP32 peak used for peak_fraction
  std::string peakSource;                   ///< how peakGflops was obtained
  std::optional<double> theoreticalGflops;  ///< CUs x clock x 2 x lanes, when the lanes are known
  std::string theoreticalSource;
  std::optional<double> probeGflops;  ///< measured by the FMA probe kernel
};

/// Back-to-back launches of one strategy (and tuning variant) on device buffers, nothing between them
/// (`bench --kernel-loop N`): separates the kernel's own time from what a lone launch pays.
struct LoopTiming {
  std::string variant;    ///< tuning variant ("" = the default)
  std::string status;     ///< "ok" or why not
  double eventMs = 0;     ///< median over launches of the events' START->END (summed over a launch's events)
  double minEventMs = 0;  ///< fastest launch
  double spanMs = 0;      ///< (END of the last launch - START of the first) / N: device time per launch
  double wallMs = 0;      ///< host wall time of N enqueues + finish, / N
};

/// One strategy at one size. status: "ok", "skipped" (unsupportedReason or declined), "failed".
struct StrategyResult {
  std::string strategy, active, size, filter, status, reason;
  int width = 0, height = 0;
  int k = 0;  ///< the filter's K (a K sweep has rows of several)
  Stats kernel, upload, download, frame;
  double mpixPerS = 0, gflops = 0, peakFraction = 0;
  std::vector<std::pair<std::string, double>> stageMedians;  ///< per kernel stage
  std::optional<int> maxAbsDiff;                             ///< vs OpenCV (or the reference for wrap)
  /// One frame from pinned host memory (Engine::stagingInput/Output): host wall time, and the device
  /// span upload + kernels + download from profiling events.
  std::optional<Stats> pinnedFrame, pinnedDevice;
  /// Frames/s of a FrameStream: upload, kernels and download of different frames overlapped.
  std::optional<double> streamFps;
  std::vector<LoopTiming> loops;  ///< --kernel-loop: default variant, or every variant with --variants
  std::vector<std::string> notices;
};

/// One OpenCV variant at one size. status: "ok" or "skipped".
struct OpenCVResult {
  std::string variant, size, device, status, reason;
  int width = 0, height = 0;
  int k = 0;                         ///< the filter's K
  bool transfers = false;            ///< includes upload to and download from the OpenCL device
  Stats ms;                          ///< per iteration (each iteration synchronised)
  int samples = 0;                   ///< timed calls (fewer than --iterations: --opencv-budget, see reason)
  std::optional<double> loopMeanMs;  ///< N iterations between two cv::ocl::finish(), divided by N
  std::string oursStrategy, oursMetric;  ///< best of ours, and which of our medians it is compared with
  double oursMs = 0;
  double speedup = 0;  ///< opencv ms / ours ms (> 1: ours is faster)
};

struct OpenCVInfo {
  std::string version;
  int threads = 0;
  bool openclAvailable = false;  ///< cv::ocl::haveOpenCL()
  bool openclUsed = false;       ///< cv::ocl::useOpenCL() after setUseOpenCL(true)
  std::string openclDevice;      ///< cv::ocl::Device::getDefault().name()
  std::string deviceConfig;      ///< OPENCV_OPENCL_DEVICE as set for the run
  std::string note;
};

struct SoakReport {
  std::string strategy, active, size;
  int frames = 0;
  long rssStartKiB = 0, rssAfterFirstKiB = 0, rssEndKiB = 0;
  long growthKiB = 0;  ///< end - after first frame (the first frame builds kernels and buffers)
  Stats frame;
  std::vector<std::string> notices;
};

/// Mean, median, nearest-rank p95 and maximum of one latency sample, in ms.
struct Spread {
  double mean = 0, p50 = 0, p95 = 0, max = 0;
  static Spread of(const std::vector<double>& values);
};

/// `bench --latency`: the app's live path at one size (bench_latency.hpp). Every stage but `fill` lies
/// between the capture stamp and the display stub; per frame they add up to the latency.
struct LatencyReport {
  std::string strategy, active, size;
  int width = 0, height = 0;
  double fps = 0, seconds = 0;  ///< as asked
  double durationS = 0;         ///< from the first frame produced to the last one displayed
  bool pinnedStaging = false;   ///< frames and results in PinnedPixelStorage (CONVOLAB_PINNED_STAGING=0: off)
  std::size_t pinnedBuffers = 0;  ///< pinned buffers the two pools held at the end (0: the heap was used)
  std::uint64_t produced = 0, processed = 0, dropped = 0;
  Spread latency;  ///< capture stamp -> display stub done
  /// fill (decode into staging, before the stamp), slot_wait, upload, kernels, download, engine_other (the
  /// rest of Engine::process on the host: enqueue, waits, gaps between events), stub.
  std::vector<std::pair<std::string, Spread>> stages;
  std::vector<std::string> notices;
  /// --latency-edits: each edit's kind and its time from the edit to the first displayed frame made with it
  /// (null: never displayed), and their spread.
  std::vector<std::pair<std::string, std::optional<double>>> edits;
  Spread editToDisplay;
};

/// `bench --ksweep`: one K at one size, from that K's rows (kernel medians of the same run).
struct KSweepPoint {
  std::string size;
  int k = 0;
  std::string fastest;                    ///< the fastest row but auto's (its active name)
  double fastestMs = 0;                   ///< 0: no row ran
  std::string autoActive;                 ///< what auto ran ("" when it did not run)
  std::optional<double> autoMs, autoGap;  ///< auto's kernel median, and auto / fastest - 1
  /// The row of the strategy auto ran (its default variant) / fastest - 1: what auto's choice costs, without
  /// the noise between two rows of the same kernel.
  std::optional<double> choiceGap;
  std::optional<double> fftMs;  ///< fft's kernel median when it ran
  std::string bestDirect;       ///< the fastest row but fft and auto
  std::optional<double> bestDirectMs;
  std::optional<double> cvPerChannelMs;  ///< OpenCV filter2D per channel on the CPU (ms per frame)
  std::optional<double> cvSingleMs;      ///< OpenCV filter2D, one call, on the CPU
};

struct BenchReport {
  DeviceReport device;
  nlohmann::json config;
  std::vector<std::pair<std::string, std::string>> autoChoice;  ///< size -> what "auto" ran
  std::vector<StrategyResult> results;
  std::vector<OpenCVResult> opencv;
  OpenCVInfo opencvInfo;
  std::optional<SoakReport> soak;
  std::vector<LatencyReport> latency;                    ///< --latency: one per size
  nlohmann::json launchFloor = nlohmann::json::array();  ///< --kernel-loop: empty kernels, per size
  std::vector<KSweepPoint> ksweep;                       ///< --ksweep: one per size and K
};

/// The K sweep's summary and crossover (bench_ksweep.cpp): the document's "ksweep" object, and its Markdown
/// section; empty when the report has no K sweep.
nlohmann::json ksweepJson(const BenchReport& report);
std::string ksweepMarkdown(const BenchReport& report);

/// The JSON document of docs/CLI.md.
nlohmann::json toJson(const BenchReport& report);
/// Markdown: the device, then one table per size (ours, then OpenCV), or the soak or latency summary.
std::string toMarkdown(const BenchReport& report);

}  // namespace convolab::cli
