// SPDX-License-Identifier: MIT
// jsonLimitProblem: a scan that counts brackets and separators outside strings, so a deep or huge document is
// refused before any parser allocates for it.
#include "convolab/json_limits.hpp"

#include <algorithm>

namespace convolab {

std::string textPosition(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const std::string_view before = text.substr(0, offset);
  const auto line = std::count(before.begin(), before.end(), '\n') + 1;
  const auto lineStart = before.rfind('\n');
  const auto column = offset - (lineStart == std::string_view::npos ? 0 : lineStart + 1) + 1;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

std::optional<std::string> jsonLimitProblem(std::string_view text, int maxDepth, std::size_t maxValues) {
  int depth = 0;
  std::size_t values = 1;  // every value but the first follows one of '[', '{', ',' or ':'
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;  // the escaped character cannot end the string
      else if (c == '"')
        inString = false;
      continue;
    }
    switch (c) {
      case '"':
        inString = true;
        break;
      case '[':
      case '{':
        if (++depth > maxDepth)
          return "nested deeper than " + std::to_string(maxDepth) + " levels at " + textPosition(text, i);
        ++values;
        break;
      case ']':
      case '}':
        depth = std::max(depth - 1, 0);
        break;
      case ',':
      case ':':
        ++values;
        break;
      default:
        continue;
    }
    if (values > maxValues)
      return "more than " + std::to_string(maxValues) + " values (at " + textPosition(text, i) + ")";
  }
  return std::nullopt;
}

}  // namespace convolab
