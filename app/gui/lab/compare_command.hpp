// SPDX-License-Identifier: MIT
// `convolab --source SPEC --filter FILE --compare REPORT.json`: the strategy comparison without a window.
#pragma once

#include <QString>

#include "command_line.hpp"

namespace convolab::lab {

/// Runs the comparison once on the first frame of options.source ("sample" when empty) with
/// options.filter (identity when empty; a chain of two or more switched-on steps: fused against step by step,
/// compareChainStrategies) on options.device, writes the JSON report to options.compare and
/// returns the exit code: 0 written, 3 bad input or the report could not be written, 4 device failure.
/// Messages go to stderr. `iterations`: timed runs per strategy.
int runCompareCommand(const gui::LaunchOptions& options, int iterations = 10);

}  // namespace convolab::lab
