// SPDX-License-Identifier: MIT
// The memory of `auto`: which strategy and launch variant won per device + frame size + filter
// structure, kept in-process and in $cache/auto-choices.json, and validated before it is trusted.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
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

/// auto measures on a crop of the frame, at most this size (a 1080p or 4K frame is measured on 1024×576: the
/// ranking is the same and a CPU device spends a quarter of the time); smaller frames are measured whole.
inline constexpr int kAutoMeasureWidth = 1024;
inline constexpr int kAutoMeasureHeight = 576;
/// The size auto measures a width×height frame on, and keys its choice by.
std::pair<int, int> autoMeasureSize(int width, int height);

/// What makes one strategy faster than another: device, driver, measured size (autoMeasureSize), and of the
/// filter's effective support (FilterSet::trimmedToSupport) K, per-channel rank, zero pattern and identical
/// channels. Not the coefficients, divisor, offset or border mode: they cannot change the ranking, so
/// editing them never measures again; nor padding with zeros.
std::string autoChoiceKey(const Context& ctx, const FilterSet& filter, int width, int height);
/// The start of autoChoiceKey shared by the structures "nearest" to this one: device, driver, measured size,
/// effective K and rank class (every channel rank ≤ 1, or dense).
std::string autoNeighbourKey(const Context& ctx, const FilterSet& filter, int width, int height);

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

/// Measures `candidates` (auto's: the registry's rows but auto) for `filter` on `ctx`'s queue at
/// autoMeasureSize(width, height), as auto's background measurement does, then stores the winner under
/// autoChoiceKey and returns it. For callers that decide themselves when measuring repays (a long CLI job, on
/// a thread of its own); the calling thread's CancelCheck stops it between candidates.
AutoChoice measureAutoChoice(Context& ctx, const FilterSet& filter, int width, int height,
                             const std::vector<StrategyEntry>& candidates);

/// Process-wide memory of the winners, backed by autoChoicesFile(). Thread-safe.
class AutoChoiceCache {
 public:
  static AutoChoiceCache& instance();
  /// The stored choice for `key` (loading the file of `cache` first when it was not loaded yet).
  std::optional<AutoChoice> find(const ProgramCache& cache, const std::string& key);
  /// Remembers `choice` and rewrites the file (best effort).
  void store(const ProgramCache& cache, const std::string& key, const AutoChoice& choice);
  /// The fastest stored choice whose key starts with `prefix` (autoNeighbourKey): the nearest structure.
  std::optional<AutoChoice> nearest(const ProgramCache& cache, const std::string& prefix);
  /// Every stored choice whose key starts with `prefix`, in key order (the lab's Analysis dock reads where
  /// fft won on a device from them).
  std::vector<std::pair<std::string, AutoChoice>> withPrefix(const ProgramCache& cache,
                                                             const std::string& prefix);
  /// Forgets `key` (a cached choice that proved invalid); the file is rewritten on the next store.
  void forget(const std::string& key);

 private:
  void load(const ProgramCache& cache);
  struct State;
  State& state();
};

}  // namespace convolab
