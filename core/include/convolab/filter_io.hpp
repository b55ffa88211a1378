// SPDX-License-Identifier: MIT
// Reading and writing filters: JSON files (the saved format) and plain text (copy/paste). Both round-trip.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
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
/// Numbers are separated by blanks, ',' or ';' and may be fractions (`1/9`); a line separated by ';', or by
/// blanks with every comma between two digits, or one number with one comma (`0,5`, as a cell reads it:
/// parseFilterNumber with decimalComma), reads commas as decimal marks (`0,5 0,25`). A block of one
/// line with K² numbers (9, 25, 49, …) is read as K rows of K (ImageJ's and spreadsheets' one-line form).
/// Border settings are not part of the text form: `base` supplies them.
FilterSet parseFilterText(std::string_view text, const FilterSet& base = FilterSet(),
                          std::string_view source = "<text>");
/// Plain text; one block when all channels are identical, else R:, G:, B: blocks.
std::string toFilterText(const FilterSet& filter);

/// One number as people type it: `0.5`, `-2e-3`, `+1`, a fraction `1/9` or `-2/16`, and, when
/// `decimalComma`, `0,5` (a comma as the decimal mark when there is no '.'). Blanks around it are ignored.
/// Returns nullopt for anything else (never a partial read), for a zero denominator and for non-finite
/// values.
std::optional<double> parseFilterNumber(std::string_view token, bool decimalComma = false);
/// ImageJ's kernel text (Process › Filters › Convolve…): K rows of K tab-separated weights, channel R's
/// matrix divided by its divisor. The offset and the other channels have no place in that form.
std::string toImageJKernelText(const FilterSet& filter);

/// The whole text of a filter file (.json or .txt). Refuses, with Error(BadInput) naming the path, anything
/// but a regular file (a FIFO never blocks the caller) and a file over kMaxFilterFileBytes (naming the
/// limit): a filter file is never read in part.
std::string readFilterFileText(const std::filesystem::path& path);
inline constexpr std::uint64_t kMaxFilterFileBytes = 1 << 20;

/// Loads a .json filter file (reads the whole file; errors name the path).
FilterSet loadFilterFile(const std::filesystem::path& path);
/// Saves as JSON atomically. Throws Error(BadInput) if `path` exists and `overwrite` is false.
void saveFilterFile(const std::filesystem::path& path, const FilterSet& filter, bool overwrite);

}  // namespace convolab
