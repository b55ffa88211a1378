// SPDX-License-Identifier: MIT
// `bench --ksweep`: every strategy at each K of a list (the built-in random or gaussian filter at that K),
// OpenCV's filter2D on the CPU on the same frames, and auto; a per-row time budget keeps the builds that grow
// with K (codegen's and sliding's literal ones: minutes at K = 63 on PoCL) from taking the run. Summarised
// per K (fastest row, auto's gap to it, fft against the best direct row) and as the crossover where fft wins.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "bench_report.hpp"
#include "convolab/context.hpp"

namespace convolab::cli::bench {

/// The K values of --ksweep items: "K" or "A:B" or "A:B:STEP" (every STEP from A to B), each odd and 1 to
/// kMaxFilterSize; sorted, without repeats. Error(Usage) otherwise.
std::vector<int> parseKSweep(const std::vector<std::string>& items);

/// Runs the sweep at each size into `report`: rows (results, opencv, with their k), and one KSweepPoint per
/// size and K. A row (but auto's) that took over opts.ksweepBudget seconds, build and timing, is not run at
/// larger K: its later rows are "skipped" with that reason. OpenCV's OpenCL variants run on a GPU only.
void runKSweep(const std::shared_ptr<Context>& ctx, const BenchOptions& opts, const std::vector<Size>& sizes,
               const std::vector<std::string>& strategies, BenchReport& report);

/// The summary of one size and K from its rows (kernel medians; auto's row is compared with the others).
KSweepPoint summariseK(const std::vector<StrategyResult>& rows, const std::vector<OpenCVResult>& cv,
                       const std::string& size, int k);

}  // namespace convolab::cli::bench
