// SPDX-License-Identifier: MIT
// A matrix row per line in written filter JSON.
#include "json_rows.hpp"

namespace convolab {

std::string numberRowsOnOneLine(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool inString = false;  // a '[' inside a string (a name, a description) is text, not a row
  for (size_t i = 0; i < text.size(); ++i) {
    if (inString || text[i] == '"') {
      out += text[i];
      if (inString && text[i] == '\\' && i + 1 < text.size())
        out += text[++i];  // an escaped character, \" included
      else if (text[i] == '"')
        inString = !inString;
      continue;
    }
    const size_t close = text[i] == '[' ? text.find_first_of("[]{}\"", i + 1) : std::string::npos;
    if (close == std::string::npos || text[close] != ']') {
      out += text[i];
      continue;
    }
    std::string row = "[", token;
    const auto flush = [&] {
      if (token.size() > 2 && token.compare(token.size() - 2, 2, ".0") == 0)
        token.resize(token.size() - 2);  // 1.0 → 1
      row += token;
      token.clear();
    };
    for (size_t j = i + 1; j < close; ++j) {
      if (text[j] == ',') {
        flush();
        row += ", ";
      } else if (text[j] != ' ' && text[j] != '\n') {
        token += text[j];
      }
    }
    flush();
    out += row + "]";
    i = close;
  }
  return out;
}

}  // namespace convolab
