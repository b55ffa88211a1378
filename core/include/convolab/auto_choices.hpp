// SPDX-License-Identifier: MIT
// The memory of `auto`: which strategy and launch variant won per device + frame size + filter
// structure, kept in-process and in $cache/auto-choices.json, and validated before it is trusted.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/filter.hpp"
#include "convolab/strategy.hpp"

namespace convolab {

struct AutoChoice {
  std::string strategy;
  std::string variant;  ///< one of the strategy's tuningVariants(), "" for its default
  double ms = 0;
};

/// What makes one strategy faster than another: device, driver, frame size, K, border, per-channel rank
/// and zero pattern, identical channels; not the coefficients.
std::string autoChoiceKey(const Context& ctx, const FilterSet& filter, int width, int height);

/// The file the choices of `cache` live in: <cache folder>/auto-choices.json.
std::filesystem::path autoChoicesFile(const ProgramCache& cache);

/// Why a (cached, so possibly tampered) choice must not run `filter` on this device, or nullopt when it
/// may: the strategy must be a registry name other than auto that accepts the filter here, `ms` finite
/// and ≥ 0, and the variant one the strategy itself offers here (tuningVariants), so its work-group
/// never exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE nor overflows.
std::optional<std::string> invalidAutoChoiceReason(const Context& ctx, const FilterSet& filter,
                                                   const AutoChoice& choice);
/// The same against auto's `candidates` (the registry's rows but auto for the overload above).
std::optional<std::string> invalidAutoChoiceReason(const Context& ctx, const FilterSet& filter,
                                                   const AutoChoice& choice,
                                                   const std::vector<StrategyEntry>& candidates);

/// Process-wide memory of the winners, backed by autoChoicesFile(). Thread-safe.
class AutoChoiceCache {
 public:
  static AutoChoiceCache& instance();
  /// The stored choice for `key` (loading the file of `cache` first when it was not loaded yet).
  std::optional<AutoChoice> find(const ProgramCache& cache, const std::string& key);
  /// Remembers `choice` and rewrites the file (best effort).
  void store(const ProgramCache& cache, const std::string& key, const AutoChoice& choice);
  /// Forgets `key` (a cached choice that proved invalid); the file is rewritten on the next store.
  void forget(const std::string& key);

 private:
  void load(const ProgramCache& cache);
  struct State;
  State& state();
};

}  // namespace convolab
