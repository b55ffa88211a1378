// SPDX-License-Identifier: MIT
// StrategyId: the text form of a strategy identity, "[auto:]name[/variant]", both ways.
#include "convolab/strategy_id.hpp"

namespace convolab {
namespace {
constexpr std::string_view kAutoPrefix = "auto:";
}  // namespace

std::string StrategyId::toString() const {
  std::string text = viaAuto ? std::string(kAutoPrefix) : std::string();
  text += name;
  if (!variant.empty()) text += "/" + variant;
  return text;
}

std::string StrategyId::describe() const {
  return note.empty() ? toString() : toString() + " (" + note + ")";
}

StrategyId StrategyId::parse(std::string_view text) {
  StrategyId id;
  if (text.substr(0, kAutoPrefix.size()) == kAutoPrefix) {
    id.viaAuto = true;
    text.remove_prefix(kAutoPrefix.size());
  }
  const auto slash = text.find('/');
  id.name = std::string(text.substr(0, slash));
  if (slash != std::string_view::npos) id.variant = std::string(text.substr(slash + 1));
  return id;
}

}  // namespace convolab
