// SPDX-License-Identifier: MIT
// FilterChain: an ordered list of 1–8 steps (a filter, or the magnitude of two filters), each switchable.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "convolab/custom_kernel.hpp"
#include "convolab/filter.hpp"

namespace convolab {

inline constexpr int kMaxChainSteps = 8;

/// One step of a chain: a FilterSet, the magnitude saturate(round(hypot(a, b))) of two FilterSets applied
/// to the same input (a and b unrounded, after divisor and offset; DESIGN §1), or the user's own OpenCL
/// (CustomKernel, issue 36). A switched-off step is skipped.
struct ChainStep {
  /// The filter, or the magnitude's first filter (a). A custom step's is the 1×1 identity that carries the
  /// border its pixel() reads with.
  FilterSet filter;
  std::optional<FilterSet> other;  ///< the magnitude's second filter (b); nullopt for a filter step
  bool enabled = true;
  std::optional<CustomKernel> custom;  ///< the code of a custom step; nullopt otherwise

  static ChainStep single(FilterSet filter, bool enabled = true);
  static ChainStep magnitude(FilterSet a, FilterSet b, bool enabled = true);
  /// A custom step reading its input with `border` (and `borderValue` under BorderMode::Constant).
  static ChainStep customCode(CustomKernel kernel, BorderMode border = BorderMode::Reflect101,
                              std::array<double, kChannels> borderValue = {0, 0, 0}, bool enabled = true);
  bool isMagnitude() const { return other.has_value(); }
  bool isCustom() const { return custom.has_value(); }
  /// The larger radius of the step's filters: how far the step reads from its output pixel. 0 for a custom
  /// step, whose reach is not known (it may read anywhere; such steps neither fuse nor tile).
  int radius() const;
  bool operator==(const ChainStep&) const = default;
};

/// A filter chain: each step's output, rounded and saturated to uchar, is the next step's input, read with
/// that step's own border (DESIGN §1). A FilterSet converts to the one-step chain, so code that holds one
/// filter keeps working; construct longer chains through make() (it validates).
class FilterChain {
 public:
  FilterChain();                  ///< one identity step
  FilterChain(FilterSet filter);  // NOLINT(google-explicit-constructor): a FilterSet is a one-step chain

  /// Validates (1..kMaxChainSteps steps; a magnitude's two filters share border mode and value, since the
  /// step reads its input once) and builds. Throws Error(BadInput) naming the step ("step 2: ...").
  static FilterChain make(std::vector<ChainStep> steps, std::string name = {});

  const std::vector<ChainStep>& steps() const { return m_steps; }
  int size() const { return static_cast<int>(m_steps.size()); }
  const std::string& name() const { return m_name; }
  /// The switched-on steps, in order: what runs. May be empty (the chain then copies its input).
  std::vector<ChainStep> enabledSteps() const;
  /// The one filter this chain means when exactly one step is on and it is a filter step (every file of
  /// before chains): callers run it exactly as before. nullopt otherwise (a magnitude, a custom step).
  std::optional<FilterSet> singleFilter() const;
  /// Every step's filters with `border` (the CLI's --border on a chain).
  FilterChain withBorder(BorderMode border) const;
  /// Sum of the radii of the switched-on steps: how far an output pixel depends on the input.
  int totalRadius() const;
  /// Whether a switched-on step is custom OpenCL (no CPU reference; runs only on the device).
  bool hasCustomStep() const;
  bool operator==(const FilterChain&) const = default;

 private:
  std::vector<ChainStep> m_steps;
  std::string m_name;
};

}  // namespace convolab
