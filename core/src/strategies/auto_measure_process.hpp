// SPDX-License-Identifier: MIT
// auto's measurement in a child process (convolab-measure): compiles and times the candidates at a low CPU
// priority in a process of its own, so no driver lock it takes (PoCL holds one for every compile) and none of
// its work can stall the live frames of the app. The child shares the driver's on-disk kernel cache, so the
// parent's later build of the winner is a cache load.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "auto_measure.hpp"

namespace convolab::auto_detail {

/// What a measurement found: the finalists (measureCandidates' round 3) and the provisional strategy's time
/// (negative when not measured).
struct MeasureOutcome {
  std::vector<Choice> results;
  double provisionalMs = -1;
};

/// The measurement program to run, or "" when measurements run in this process: CONVOLAB_MEASURE_PROGRAM
/// (CoreConfig::measureProgram; "off" = in this process), else convolab-measure beside the running program.
std::string measureProgramPath();

/// Measures `candidates` for `filter` at width×height on the device of `ctx` in a child process (nice 10),
/// within `budgetMs`. nullopt when it cannot run there (no program, a candidate that is not a registry row,
/// the child failed to start or to report): the caller measures in-process then. Its progress reaches the
/// calling thread's progress callback; the calling thread's cancel check is polled every 20 ms and, when it
/// says the work is superseded, kills the child and throws Cancelled. `onBetter` gets the child's early
/// reports (measureCandidates' onBetter) as they come, on the calling thread, while the child goes on.
std::optional<MeasureOutcome> measureInChildProcess(const std::vector<StrategyEntry>& candidates,
                                                    const Context& ctx, const FilterSet& filter, int width,
                                                    int height, int budgetMs,
                                                    const std::function<void(const Choice&)>& onBetter = {});

/// Prepares `choice` for `filter` at width×height and launches it once in a child process (nice 10), so that
/// this process's own preparation and first launch find the driver's on-disk cache warm: on PoCL a new
/// kernel's first launch compiles its work-group function and stalls every queue of the process for about a
/// second (a swap to a measured winner froze the live picture 1.0–1.7 s). Waits at most 60 s; false when it
/// could not (no convolab-measure, not a registry strategy, a failure there). Cancellable as above.
bool prepareInChildProcess(const Context& ctx, const FilterSet& filter, const Choice& choice, int width,
                           int height);

/// The child's side (convolab-measure's main): `--device P:D --width W --height H --runs N --budget-ms B
/// --candidates a,b,c --filter FILE [--nice N] [--verbose]`; prints `progress D T` lines while it measures,
/// then `provisional MS` and one `result STRATEGY VARIANT|- MS` line per finalist. Exit 0, or 2/3/4 (usage,
/// bad input, device) with the message on stderr.
int runMeasureChild(int argc, char** argv);

/// The fault injection of the stall test: with CONVOLAB_INJECT_FAULT=measure:hold-driver, a measurement
/// (wherever it runs) first holds its process's injectedDriverLock() for 10 s, as a PoCL compile holds the
/// driver lock that every launch of the process needs. Cancellable.
void injectedMeasurementStall();

}  // namespace convolab::auto_detail
