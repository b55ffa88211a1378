// SPDX-License-Identifier: MIT
// A path as one printable line, for messages: a file name may hold any byte but '/' and NUL, and a newline in
// one must neither split a message in two nor let a name pass for another.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace convolab {

/// `path` with control characters escaped (newline as \n, CR as \r, tab as \t, others as \xNN) and '\' as
/// \\, so the text is one line and maps back to one name. Other bytes (UTF-8 included) are kept.
inline std::string printablePath(const std::filesystem::path& path) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char ch : path.native()) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

/// Where `text` holds its first control character (below 0x20, or DEL), or nothing: text meant to be one
/// line.
inline std::optional<std::size_t> firstControlCharacter(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i)
    if (const auto c = static_cast<unsigned char>(text[i]); c < 0x20 || c == 0x7f) return i;
  return std::nullopt;
}

}  // namespace convolab
