// SPDX-License-Identifier: MIT
// `bench --latency`: the app's live path without Qt (paced capture into pinned staging, newest-wins slot,
// engine, display stub) and its capture-to-display latency.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench_common.hpp"
#include "bench_report.hpp"
#include "convolab/context.hpp"
#include "convolab/filter.hpp"
#include "convolab/strategy_id.hpp"

namespace convolab::cli::bench {

/// For `seconds`, a producer thread (the app's capture thread) copies a prepared frame of `size` into a
/// pinned pool image at `fps` and puts it into a capture::LatestFrameSlot; a consumer thread (the processing
/// worker) takes the newest frame, runs `strategy` (prepared before timing) from pinned input to pinned
/// output and hands the result to a display stub that reads every pixel as the preview's paint would. Reports
/// the latency capture stamp -> stub done, its stages, and the frames processed and dropped (replaced in the
/// slot). CONVOLAB_PINNED_STAGING=0 puts both pools on the heap, as in the app.
/// With `editEveryMs` > 0 the consumer also edits the filter that often, between frames, as a person does in
/// the app (editStream: K 3…15 dense and separable, a border change, zero padding 7 → 15, a coefficient), and
/// times each edit to the first displayed frame made with it.
LatencyReport runLatency(const std::shared_ptr<Context>& ctx, const StrategyId& strategy,
                         const FilterSet& filter, Size size, double seconds, double fps,
                         double editEveryMs = 0);

/// The edits of --latency-edits, in order, each with its kind ("filter k=9", "border", "pad 7->15", "cell").
std::vector<std::pair<std::string, FilterSet>> editStream(const FilterSet& base);

}  // namespace convolab::cli::bench
