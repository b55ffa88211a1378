// SPDX-License-Identifier: MIT
// Reading and writing filter chains: the JSON "steps" form of docs/FILTER_FORMAT.md; any other filter file is
// a one-step chain. The text forms hold one filter: chainExportLimitation says what they cannot express.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "convolab/filter_chain.hpp"

namespace convolab {

/// Parses a filter file: with "steps" a chain (each element a filter object, or {"magnitude": [a, b]}, either
/// with an optional "enabled"), otherwise parseFilterJson's one filter as a one-step chain. A file's own
/// errors are Error(BadInput) as for one filter; errors in the chain's structure or in one of its steps name
/// the step ("<source>: step 2: field 'matrix': ...") and are Error(Usage), so the CLI exits 2 for a bad
/// chain (issue 30).
FilterChain parseFilterChainJson(std::string_view text, std::string_view source = "<json>");
/// Serialises: a chain of one switched-on filter step named like the chain is written exactly as
/// toFilterJson writes that filter (so older readers read it); anything else in the "steps" form.
/// parseFilterChainJson(toFilterChainJson(c)) == c.
std::string toFilterChainJson(const FilterChain& chain);

/// Why the one-filter text forms (plain text, ImageJ, OpenCV) cannot hold `chain`, or nullopt when it is one
/// switched-on filter step: e.g. "the text form holds one filter; this chain has 3 steps (a magnitude, a
/// switched-off step): save it as JSON".
std::optional<std::string> chainExportLimitation(const FilterChain& chain);
/// toFilterText of the chain's one filter; throws Error(BadInput) with chainExportLimitation otherwise.
std::string toFilterChainText(const FilterChain& chain);

/// Loads a .json filter or chain file (whole file, regular files only; errors name the path).
FilterChain loadFilterChainFile(const std::filesystem::path& path);
/// Saves as JSON atomically. Throws Error(BadInput) if `path` exists and `overwrite` is false.
void saveFilterChainFile(const std::filesystem::path& path, const FilterChain& chain, bool overwrite);

}  // namespace convolab
