// SPDX-License-Identifier: MIT
// `bench`'s runs of our strategies: per-frame stage times, pinned and streamed frames, back-to-back launches,
// and the launch floor.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <optional>
#include <string>

#include "bench_common.hpp"
#include "bench_report.hpp"
#include "convolab/context.hpp"
#include "convolab/engine.hpp"
#include "convolab/filter.hpp"
#include "convolab/image.hpp"

namespace convolab::cli::bench {

/// One strategy on one frame through the Engine: warm-up, then per-frame kernel, transfer and host times,
/// throughput, the difference to `expected` (when given), pinned/stream frames and --kernel-loop timings.
/// "skipped" when the strategy declines the filter, "failed" when it fails or the engine falls back.
StrategyResult runStrategy(const std::shared_ptr<Context>& ctx, const std::string& name,
                           const FilterSet& filter, const std::string& filterLabel, const Image& frame,
                           const BenchOptions& opts, const std::optional<cv::Mat>& expected,
                           double peakGflops, const FilterChain* chain = nullptr,
                           ChainFusion fusion = ChainFusion::Auto);

/// One progress line for a row: its kernel, frame and throughput, or its status and reason.
void printRow(const StrategyResult& r);

/// What a launch costs with no work: an empty kernel (kernels/empty_probe.cl) over one work-group and over
/// a 1080p-like grid, and a device-to-device copy of one frame (the memory floor of reading and writing it
/// once); `n` launches each.
nlohmann::json measureLaunchFloor(Context& ctx, Size size, int n);

}  // namespace convolab::cli::bench
