// SPDX-License-Identifier: MIT
// `bench --latency`: the app's live path without Qt (paced capture into pinned staging, newest-wins slot,
// engine, display stub) and its capture-to-display latency.
#pragma once

#include <memory>
#include <string>

#include "bench.hpp"
#include "bench_common.hpp"
#include "convolab/context.hpp"
#include "convolab/filter.hpp"

namespace convolab::cli::bench {

/// For `seconds`, a producer thread (the app's capture thread) copies a prepared frame of `size` into a
/// pinned pool image at `fps` and puts it into a capture::LatestFrameSlot; a consumer thread (the processing
/// worker) takes the newest frame, runs `strategy` (prepared before timing) from pinned input to pinned
/// output and hands the result to a display stub that reads every pixel as the preview's paint would. Reports
/// the latency capture stamp -> stub done, its stages, and the frames processed and dropped (replaced in the
/// slot). CONVOLAB_PINNED_STAGING=0 puts both pools on the heap, as in the app.
LatencyReport runLatency(const std::shared_ptr<Context>& ctx, const std::string& strategy,
                         const FilterSet& filter, Size size, double seconds, double fps);

}  // namespace convolab::cli::bench
