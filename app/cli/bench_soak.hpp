// SPDX-License-Identifier: MIT
// `bench --soak`: many frames through one strategy, with the process's memory (RSS) before, after the first
// frame and at the end.
#pragma once

#include <memory>
#include <string>

#include "bench_common.hpp"
#include "bench_report.hpp"
#include "convolab/context.hpp"
#include "convolab/filter.hpp"
#include "convolab/strategy_id.hpp"

namespace convolab::cli::bench {

/// Pushes `frames` frames of `size` through `strategy` and reports RSS growth after the first frame (which
/// builds kernels and buffers) and per-frame host times.
SoakReport runSoak(const std::shared_ptr<Context>& ctx, const StrategyId& strategy, const FilterSet& filter,
                   Size size, int frames);

}  // namespace convolab::cli::bench
