// SPDX-License-Identifier: MIT
// numberRowsOnOneLine: the filter writer's layout, a matrix row per line.
#pragma once

#include <string>

namespace convolab {

/// `text` (json::dump(2)) with every array of plain numbers on one line, whole numbers without ".0": a matrix
/// reads a row per line ("[1, 6, 15, 20, 15, 6, 1]"), as the bundled presets are written, not one number per
/// line (issue 33.10).
std::string numberRowsOnOneLine(const std::string& text);

}  // namespace convolab
