// SPDX-License-Identifier: MIT
// Whether two chains differ only in their custom steps' arguments (parameter values and ranges, border
// value): such an edit needs no build, so a slider move goes live at once, without a trial.
#pragma once

#include "convolab/filter_chain.hpp"

namespace convolab::gui {

/// True when `from` has a custom step and `to` is the same chain but for the custom steps' parameter values
/// and ranges and their border value (kernel arguments). Same code, parameter names, border mode and steps
/// otherwise: the running program serves both.
bool onlyCustomArgumentsDiffer(const FilterChain& from, const FilterChain& to);

}  // namespace convolab::gui
