// Reading and writing filters: JSON files (the saved format) and plain text (copy/paste). Both round-trip.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "convolab/atomic_file.hpp"  // writeFileAtomically, for callers that included it from here
#include "convolab/filter.hpp"

namespace convolab {

/// Parses the JSON format of docs/FILTER_FORMAT.md. `source` names the file in error messages.
/// Throws Error(BadInput) naming the source, the field and what was expected.
FilterSet parseFilterJson(std::string_view text, std::string_view source = "<json>");
/// Serialises to JSON; parseFilterJson(toFilterJson(f)) == f.
std::string toFilterJson(const FilterSet& filter);

/// Parses the plain-text form (optional R:/G:/B: blocks of K rows, optional divisor:/offset: lines).
/// Border settings are not part of the text form: `base` supplies them.
FilterSet parseFilterText(std::string_view text, const FilterSet& base = FilterSet(),
                          std::string_view source = "<text>");
/// Plain text; one block when all channels are identical, else R:, G:, B: blocks.
std::string toFilterText(const FilterSet& filter);

/// Loads a .json filter file (reads the whole file; errors name the path).
FilterSet loadFilterFile(const std::filesystem::path& path);
/// Saves as JSON atomically. Throws Error(BadInput) if `path` exists and `overwrite` is false.
void saveFilterFile(const std::filesystem::path& path, const FilterSet& filter, bool overwrite);

}  // namespace convolab
