// SPDX-License-Identifier: MIT
// The trial of a custom OpenCL step (issue 36): its code is built and run on a test frame in a process of its
// own (convolab-measure --trial) before it goes live, so a kernel that never ends, crashes or writes outside
// its output cannot stall or crash the program that asked.
#pragma once

#include <string>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/custom_kernel.hpp"
#include "convolab/filter_chain.hpp"

namespace convolab {

/// What a trial allows (docs/GUI.md, "Custom OpenCL": the numbers a person is told).
struct TrialLimits {
  double budgetMs = 250;  ///< the longest a frame of the trial size may take (250 ms: 4 frames a second)
  int buildMs = 60000;    ///< how long the build may take before the trial gives up
  int runMs = 4000;       ///< how long the runs may take in all before the kernel is called endless
};

struct TrialOutcome {
  enum class Verdict {
    Passed,        ///< built, ran within the budget, wrote only its output
    BuildFailed,   ///< diagnostics say why
    TooSlow,       ///< a frame took longer than the budget
    Hung,          ///< did not finish within TrialLimits::runMs (an endless loop?); the process was killed
    Crashed,       ///< the trial process died (an access far outside the buffers, a driver fault)
    WroteOutside,  ///< changed the input or the guard bytes around the output
    Unavailable,   ///< the trial could not run (no convolab-measure); nothing is known about the kernel
  };
  Verdict verdict = Verdict::Unavailable;
  double ms = -1;       ///< the kernel's time per frame of the trial (median of up to 3), when it ran
  std::string message;  ///< for a person: what was found, with the numbers
  std::vector<KernelDiagnostic> diagnostics;  ///< the build's errors and warnings
  std::string log;                            ///< the compiler's whole text when the build failed
  bool passed() const { return verdict == Verdict::Passed; }
};

/// Tries the custom `step` on a width×height test frame on the device of `ctx`, in convolab-measure (beside
/// the running program, or CONVOLAB_MEASURE_PROGRAM). Blocks the calling thread for the build and the runs;
/// never throws for anything the kernel does.
TrialOutcome trialCustomStep(const Context& ctx, const ChainStep& step, int width, int height,
                             const TrialLimits& limits = {});

/// The child's side: `--trial FILE --device P:D --width W --height H --budget-ms B`. Prints the build log as
/// `log TEXT` lines and `diag LINE COL error|warning MESSAGE` lines, `built`, then `ran MS` and `outside
/// WHAT` or `ok`; exit 0 when it could judge, 2/3/4 (usage, bad input, device) otherwise.
int runTrialChild(int argc, char** argv);

}  // namespace convolab
