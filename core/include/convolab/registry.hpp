// SPDX-License-Identifier: MIT
// The one table of strategies. Tests, the benchmark, the CLI and the GUI iterate it.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "convolab/strategy.hpp"

namespace convolab {

/// All strategies in fallback order of preference is NOT implied; "auto" is last.
const std::vector<StrategyEntry>& strategyRegistry();

/// The registry row called `name`, or nullptr when there is none (a lookup: nothing is constructed).
const StrategyEntry* findStrategy(std::string_view name);

/// Throws Error(Usage) listing the valid names when `name` is not a registered strategy.
void requireStrategyName(std::string_view name);

/// Creates the strategy called `name`; throws Error(Usage) listing the valid names when unknown.
std::unique_ptr<Strategy> createStrategy(std::string_view name);

/// Every row but auto's, in registry order: what auto measures.
std::vector<StrategyEntry> strategyCandidates();

/// Names in registry order (including "auto").
std::vector<std::string> strategyNames();

/// `auto` measuring `candidates` only (none of them auto). The registry's "auto" row is this over every other
/// row: the candidates are injected, so auto itself never reads the registry.
std::unique_ptr<Strategy> makeAutoStrategy(std::vector<StrategyEntry> candidates);

/// Cancels auto's background measurements and builds and waits for them to stop (each at its next
/// cancellation point, or when the launch it waits on ends). Programs call it before they return from main:
/// a driver still compiling for one of them while static destructors run can crash (PoCL's LLVM did, at the
/// app's exit). New work may start again afterwards.
void stopAutoMeasurements();

/// The order the engine tries when the chosen strategy cannot run: simple, portable ones last.
inline constexpr std::string_view kFallbackOrder[] = {"constant", "naive"};

}  // namespace convolab
