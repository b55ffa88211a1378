// SPDX-License-Identifier: MIT
// compareChainStrategies: Compare Strategies on a chain of several steps — every strategy run step by step
// (each step its own launch, the steps' times summed) beside the whole chain fused in one launch, on the same
// frame, through the engine's own chain path; the ★ rule against what the preview runs now, and the verdict.
// Qt-free, as strategy_comparison.hpp.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "convolab/filter_chain.hpp"
#include "strategy_comparison.hpp"

namespace convolab::lab {

/// The name of the fused row: not a registry strategy ("Make live" on it runs the live chain fused).
inline constexpr std::string_view kFusedRow = "fused";
/// A row of what runs now keeps ★ unless another row is faster by more than this fraction: the medians of
/// two runs of the same kernel differ by a few per cent, and ★ must never make the preview slower.
inline constexpr double kStarMargin = 0.03;

/// Whether Compare measures `chain` as a chain: two or more switched-on steps. A chain of one switched-on
/// step compares as that filter, as before chains.
bool comparesAsChain(const FilterChain& chain);

/// Compares on `ctx` (used exclusively while running): for each registry strategy (options.only, and auto
/// when options.includeAuto; each strategy's default variant: options.allVariants does not apply) one row
/// that runs every switched-on step with it, one launch a step (a magnitude step runs its own kernel, a
/// custom step its code), and one row "fused" for the whole chain in one launch (ChainFusion::Fused), or
/// declined with the engine's reason. Every row runs on the same uploaded frame with each filter step trimmed
/// to its support, and is checked against referenceChain (no reference with a custom step: maxDiff -1).
/// Sorted and starred like compareStrategies; report.chainSteps and report.verdict say what ran and which is
/// faster. Throws only if the frame is empty.
ComparisonReport compareChainStrategies(Context& ctx, const FilterChain& chain, const ImageView& frame,
                                        const ComparisonOptions& options,
                                        const ComparisonProgress& progress = {});

/// What the live preview runs now: the requested strategy (a registry name) and whether its chain ran fused.
struct LiveChainRun {
  std::string strategy;
  bool fused = false;
};

/// Marks the row of what runs now (runsNow: fused, or the step-by-step row of `now.strategy`) and applies the
/// ★ rule: ★ is on the fastest row, but stays on the row of what runs now unless that is slower by more than
/// kStarMargin, so "Make live" on ★ never makes the preview slower. Then writes the verdict again. A report
/// of one filter is left as it is.
void markWhatRunsNow(ComparisonReport& report, const LiveChainRun& now);

/// Which is faster, fused or the fastest step-by-step row, and by how much, in words ("Fused, the whole chain
/// in one launch: 2.31 ms, 1.74× faster than step by step with tiled (4.02 ms)."), and how ★ compares with
/// what runs now when a row is marked. Empty for one filter.
std::string chainVerdict(const ComparisonReport& report);

}  // namespace convolab::lab
