// SPDX-License-Identifier: MIT
// StrategyId: which strategy runs (registry name, tuning variant, chosen by auto or not) and its one text
// form.
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace convolab {

/// The registry name of the strategy that measures the others and runs the fastest.
inline constexpr std::string_view kAutoStrategy = "auto";

/// What runs: a registry name, its tuning variant and whether `auto` chose it. Its text form (toString) is
/// what the CLI, the app, the bench and the lab show and write: "tiled", "tiled/b4x2-wg16x8",
/// "auto:tiled/b4x2-wg16x8", and "auto" for auto before it has chosen.
struct StrategyId {
  std::string name;      ///< registry name ("tiled"; kAutoStrategy while auto has not chosen)
  std::string variant;   ///< one of the strategy's tuningVariants(), "" for its default
  bool viaAuto = false;  ///< auto chose it

  StrategyId() = default;
  explicit StrategyId(std::string name, std::string variant = {}, bool viaAuto = false)
      : name(std::move(name)), variant(std::move(variant)), viaAuto(viaAuto) {}

  /// "[auto:]name[/variant]".
  std::string toString() const;
  /// The inverse of toString(): "auto:tiled/16x8" → {tiled, 16x8, true}, "tiled" → {tiled, "", false},
  /// "auto" → {auto, "", false}. The name is not checked against the registry (requireStrategyName does).
  static StrategyId parse(std::string_view text);

  /// True for auto, whether or not it has chosen yet.
  bool isAuto() const { return viaAuto || name == kAutoStrategy; }

  friend bool operator==(const StrategyId&, const StrategyId&) = default;
};

}  // namespace convolab
