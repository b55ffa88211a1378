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
  /// What a person should know about how it runs now, not part of its identity (ignored by ==, toString and
  /// parse): "provisional, measuring 3/10" (auto before its measurement ended), "generic kernel: literal
  /// limit" (codegen/sliding running their weights-as-argument kernel). Empty when nothing is worth saying.
  std::string note;

  StrategyId() = default;
  explicit StrategyId(std::string name, std::string variant = {}, bool viaAuto = false)
      : name(std::move(name)), variant(std::move(variant)), viaAuto(viaAuto) {}

  /// "[auto:]name[/variant]".
  std::string toString() const;
  /// toString() with the note in parentheses: "auto:dynamic (provisional, measuring 3/10)". What the app's
  /// strategy line, the status bar and --stats show.
  std::string describe() const;
  /// The inverse of toString(): "auto:tiled/16x8" → {tiled, 16x8, true}, "tiled" → {tiled, "", false},
  /// "auto" → {auto, "", false}. The name is not checked against the registry (requireStrategyName does).
  static StrategyId parse(std::string_view text);

  /// True for auto, whether or not it has chosen yet.
  bool isAuto() const { return viaAuto || name == kAutoStrategy; }

  friend bool operator==(const StrategyId& a, const StrategyId& b) {
    return a.name == b.name && a.variant == b.variant && a.viaAuto == b.viaAuto;
  }
};

}  // namespace convolab
