// SPDX-License-Identifier: MIT
// The bounds every JSON parser of the programs checks before it builds a document: nesting depth and the
// number of values, found by one linear scan in constant memory (docs/RELIABILITY.md, "Parsers").
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace convolab {

/// No file the programs read nests deeper than 5 levels (a filter's channels.r.matrix rows); 64 leaves room
/// and keeps every recursive walk of a document (nlohmann's dump(), comparisons) far from the stack's end.
inline constexpr int kMaxJsonDepth = 64;
/// At most this many values (arrays, objects, keys and scalars) in one document: at about 16 bytes a
/// value plus its text, a parse costs at most a few tens of MB whatever the file's size limit.
inline constexpr std::size_t kMaxJsonValues = 1'000'000;

/// Why `text` may not be parsed ("nested deeper than 64 levels at line 3, column 70", "more than 1000000
/// values"), or nothing when it is within the bounds. It judges only the shape: brackets inside strings do
/// not count, and malformed JSON is left to the parser. Linear time, constant memory.
std::optional<std::string> jsonLimitProblem(std::string_view text, int maxDepth = kMaxJsonDepth,
                                            std::size_t maxValues = kMaxJsonValues);

/// "line L, column C" of byte `offset` (0-based) of `text`.
std::string textPosition(std::string_view text, std::size_t offset);

}  // namespace convolab
