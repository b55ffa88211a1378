// SPDX-License-Identifier: MIT
// StrategyComparison: times every registry strategy (and auto's choice, optionally every tuning variant) on
// one frame and filter, and checks each against the CPU reference. Qt-free, so the CLI could use it too.
#pragma once

#include <atomic>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/filter.hpp"
#include "convolab/image.hpp"
#include "convolab/strategy_id.hpp"

namespace convolab::lab {

struct ComparisonOptions {
  int iterations = 10;            ///< timed runs per strategy (the median needs a handful)
  int warmup = 1;                 ///< untimed runs first (the first run may include lazy allocations)
  bool allVariants = false;       ///< also every tuning variant, not only each strategy's default
  bool includeAuto = true;        ///< also run "auto" (its measurement may take a while the first time)
  std::vector<std::string> only;  ///< when not empty: just these strategies (registry names)
};

/// One row: a strategy (with a tuning variant, or "" for its default) on this frame.
struct ComparisonRow {
  std::string strategy;
  std::string variant;
  StrategyId active;   ///< what ran: the name, or auto's choice (auto:tiled/16x8) for auto
  std::string status;  ///< "ok", "declined" (unsupportedReason) or "failed" (an OpenCL error)
  std::string reason;
  double kernelMedianMs = 0, kernelP95Ms = 0, kernelMinMs = 0;
  double uploadMs = 0, downloadMs = 0;  ///< medians
  double mpixPerS = 0;                  ///< frame pixels / kernel median
  double gflops = 0;                    ///< nominal 2·K²·3 flops a pixel (the K that ran) / kernel median
  double peakFraction = 0;              ///< gflops / the device's FP32 peak (0 when unknown)
  int maxDiff = -1;                     ///< max |out − reference| over the frame (-1: not run)
  bool fastest = false;  ///< ★: the fastest row; auto's own when nothing beats it ("Make live" never slows)
  bool autoChoice = false;  ///< the row of the strategy (and variant) auto picked
  /// A chain (compare_chain.hpp): "fused" (the whole chain in one launch) or "steps" (each step its own
  /// launch, with `strategy`); empty for one filter.
  std::string chainMode;
  std::vector<double> stepMedianMs;  ///< "steps": each step's kernel median (kernelMedianMs: of the sums)
  std::vector<std::string>
      stepActive;        ///< "steps": what each step ran ("tiled", "auto:dynamic", "magnitude")
  bool runsNow = false;  ///< a chain: the row of what the live preview runs now (● in the table)
  bool ok() const { return status == "ok"; }
};

/// A row whose run threw: "failed" with the reason (an OpenCL error with its name). Compare's single-filter
/// and chain rows both end this way.
void markFailed(ComparisonRow& row, const std::exception& e);
/// The largest difference between the bytes of two images of one size (a row's output and its reference).
int maxByteDiff(const Image& a, const Image& b);

struct ComparisonReport {
  std::string device;
  std::string deviceSpec;
  int width = 0, height = 0;
  int filterSize = 0;          ///< K that ran: the filter trimmed to its support (every row runs that one)
  int declaredFilterSize = 0;  ///< K as the filter was given (zero rings included)
  std::string filterName;
  int iterations = 0;
  double peakGflops = 0;
  std::string peakSource;  ///< how the peak was estimated
  StrategyId autoActive;   ///< what auto ran, e.g. auto:tiled/16x8 (empty name: auto did not run)
  bool cancelled = false;
  /// A chain (compare_chain.hpp): its switched-on steps ("1 Gaussian 5x5", "2 magnitude (Sobel X, Sobel Y)
  /// 3x3"), and which runs faster, fused or step by step, and by how much. Empty for one filter.
  std::vector<std::string> chainSteps;
  std::string verdict;
  std::vector<ComparisonRow> rows;  ///< sorted: ok rows by kernel median, then declined and failed
};

/// Called between runs with (done, total, what is measured now); return false to cancel.
using ComparisonProgress = std::function<bool(int done, int total, const std::string& label)>;

/// FP32 peak estimate: compute units × clock × 2 (FMA) × lanes per unit guessed from the vendor and type
/// (GPUs: NVIDIA 128, AMD 64, Intel 16; CPUs: 16, AVX2 with two FMA ports). Returns {GFLOP/s, how}.
std::pair<double, std::string> estimatePeakGflops(const DeviceInfo& device);

/// Runs the comparison on `ctx` (which it uses exclusively while running). Every row runs the filter trimmed
/// to its support (FilterSet::trimmedToSupport: the same output from fewer taps), as auto runs it, so the
/// rows compare like with like. Throws only if the frame is empty; per-strategy failures become rows with
/// status "failed".
ComparisonReport compareStrategies(Context& ctx, const FilterSet& filter, const ImageView& frame,
                                   const ComparisonOptions& options, const ComparisonProgress& progress = {});

/// Shared by compareStrategies and compareChainStrategies once the rows are measured: Mpix/s, GFLOP/s
/// (`flopsPerPixel` nominal flops of one output pixel) and % peak, the order (ok rows by kernel median, then
/// failed, then declined) and ★ on the fastest.
void rankRows(ComparisonReport& report, double flopsPerPixel);

/// The report as JSON (the `convolab --compare` document; see docs/GUI.md).
std::string comparisonToJson(const ComparisonReport& report);
/// A GitHub-flavoured Markdown table with a heading line.
std::string comparisonToMarkdown(const ComparisonReport& report);
/// CSV with a header row.
std::string comparisonToCsv(const ComparisonReport& report);

}  // namespace convolab::lab
