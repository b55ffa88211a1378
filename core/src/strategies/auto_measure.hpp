// SPDX-License-Identifier: MIT
// auto's measurement: times the candidate strategies on one device queue and picks the fastest. Used by
// auto's background jobs, by its `now` mode and by measureAutoChoice (the CLI's long videos).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "auto_candidates.hpp"
#include "convolab/auto_choices.hpp"
#include "convolab/strategy.hpp"

namespace convolab::auto_detail {

using Choice = AutoChoice;
using Clock = std::chrono::steady_clock;

/// What runs while auto has nothing better ready: it needs no compile for a new filter (one program per
/// device, built at the first filter), so any edit shows on the next frame.
inline constexpr std::string_view kProvisionalStrategy = "dynamic";

/// The candidate called `name`, made anew; Error(Usage) when there is none (a stored choice is checked
/// against the candidates before it gets here, so this is a programming error).
std::unique_ptr<Strategy> createCandidate(const std::vector<StrategyEntry>& candidates,
                                          std::string_view name);

/// Prepares `s` for `filter` at width×height on `ctx` and launches it once on scratch buffers, waiting for
/// it: a CPU driver compiles a kernel's launch the first time, so a later launch of the same program finds it
/// done.
void prepareAndLaunchOnce(Strategy& s, Context& ctx, const FilterSet& filter, int width, int height);

/// Measures in three rounds so slow candidates cost one run each: (1) every accepting strategy once, default
/// variant, in measuringOrder; (2) every tuning variant of the strategies within 2x of the best,
/// once; (3) the best few (strategy, variant) pairs `CONVOLAB_AUTO_RUNS` times (default 5), median. Returns
/// round 3 and, through `provisionalMs`, the provisional strategy's time (negative when not measured).
/// Candidates after `deadline` are skipped: the result is then the best of those measured by then.
/// `beforeCandidate` may wait (for edits to pause): that time is not the measurement's. Round 1 measures the
/// factored and FFT candidates first and leaves out those whose build or run cannot repay at this K
/// (auto_candidates.hpp); `excluded`, when given, receives each with its reason. `onBetter`, when given, is
/// called during round 1 each time the best candidate so far beats the provisional strategy by kSwitchMargin
/// and the best reported before it: what runs live can swap to it long before round 3 ends (on a loaded CPU
/// device the three rounds can take minutes).
std::vector<Choice> measureCandidates(const std::vector<StrategyEntry>& entries, Context& ctx,
                                      const FilterSet& filter, int width, int height,
                                      Clock::time_point deadline, double* provisionalMs,
                                      const std::function<void()>& beforeCandidate = {},
                                      std::vector<Exclusion>* excluded = nullptr,
                                      const std::function<void(const Choice&)>& onBetter = {});

/// A measured winner replaces what runs only when it is at least this much faster (median kernel time of
/// the same measurement): smaller gains are within run-to-run noise on a CPU device and not worth a swap.
constexpr double kSwitchMargin = 0.10;

/// Tests: when set, measureCandidates takes each candidate's time (ms) from `times` instead of running it
/// (nullopt: it cannot run here), so the rounds and the choice are tested without timing a busy device.
/// Empty: measure. Set it while no measurement runs.
using InjectedTimes =
    std::function<std::optional<double>(std::string_view strategy, const std::string& variant)>;
void setInjectedTimesForTesting(InjectedTimes times);

/// The quickest of `results` (not empty).
Choice fastest(const std::vector<Choice>& results);

}  // namespace convolab::auto_detail
