// SPDX-License-Identifier: MIT
// ShapeVariant: the one text grammar of launch-shape tuning variants, "<lead><a>x<b>-wg<wgx>x<wgy>" followed
// by optional "-<tag><n>" fields in a fixed order. TileShape ("b4x8-wg16x4-f1-s1-c0") and SlidingShape
// ("s4x16-wg32x2-c0-u1") are its two dialects; each checks its own ranges.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace convolab {

struct ShapeVariant {
  char lead = 'b';
  int a = 0, b = 0;                          ///< the block (or strip): pixels across × rows
  int wgx = 0, wgy = 0;                      ///< the work-group
  std::vector<std::pair<char, int>> fields;  ///< the "-<tag><n>" fields, in their order

  /// The value of field `tag`, nullopt when the text has none.
  std::optional<int> field(char tag) const;
  std::string str() const;

  /// nullopt unless `text` is exactly `lead`<a>x<b>-wg<wgx>x<wgy> followed by fields whose tags are in
  /// `tagOrder`, in that order, each at most once. Numbers are unsigned decimal.
  static std::optional<ShapeVariant> parse(std::string_view text, char lead, std::string_view tagOrder);
};

}  // namespace convolab
