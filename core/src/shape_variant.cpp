// SPDX-License-Identifier: MIT
// ShapeVariant: the launch-shape variant grammar shared by TileShape and SlidingShape.
#include "shape_variant.hpp"

#include <cctype>
#include <charconv>

namespace convolab {
namespace {

/// Reads an unsigned decimal number at the front of `text` and drops it from there.
std::optional<int> takeNumber(std::string_view& text) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text.front()))) return std::nullopt;
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc()) return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

/// Drops `literal` from the front of `text`; false when it is not there.
bool takeLiteral(std::string_view& text, std::string_view literal) {
  if (text.substr(0, literal.size()) != literal) return false;
  text.remove_prefix(literal.size());
  return true;
}

}  // namespace

std::optional<int> ShapeVariant::field(char tag) const {
  for (const auto& [t, value] : fields)
    if (t == tag) return value;
  return std::nullopt;
}

std::string ShapeVariant::str() const {
  std::string s = std::string(1, lead) + std::to_string(a) + "x" + std::to_string(b) + "-wg" +
                  std::to_string(wgx) + "x" + std::to_string(wgy);
  for (const auto& [tag, value] : fields) s += "-" + std::string(1, tag) + std::to_string(value);
  return s;
}

std::optional<ShapeVariant> ShapeVariant::parse(std::string_view text, char lead, std::string_view tagOrder) {
  ShapeVariant v;
  v.lead = lead;
  std::optional<int> a, b, wgx, wgy;
  if (!takeLiteral(text, std::string_view(&lead, 1)) || !(a = takeNumber(text)) || !takeLiteral(text, "x") ||
      !(b = takeNumber(text)) || !takeLiteral(text, "-wg") || !(wgx = takeNumber(text)) ||
      !takeLiteral(text, "x") || !(wgy = takeNumber(text)))
    return std::nullopt;
  v.a = *a;
  v.b = *b;
  v.wgx = *wgx;
  v.wgy = *wgy;
  std::size_t nextTag = 0;  // tags must follow tagOrder: each one after the previous
  while (!text.empty()) {
    if (!takeLiteral(text, "-") || text.empty()) return std::nullopt;
    const auto at = tagOrder.find(text.front(), nextTag);
    if (at == std::string_view::npos) return std::nullopt;
    const char tag = text.front();
    text.remove_prefix(1);
    const auto value = takeNumber(text);
    if (!value) return std::nullopt;
    v.fields.emplace_back(tag, *value);
    nextTag = at + 1;
  }
  return v;
}

}  // namespace convolab
