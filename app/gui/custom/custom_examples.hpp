// SPDX-License-Identifier: MIT
// CustomExamples: the Custom OpenCL panel's Examples menu — the filter files with a custom step in a folder
// (the embedded resources/presets/custom/*.json by default).
#pragma once

#include <QString>
#include <vector>

#include "convolab/filter_chain.hpp"

namespace convolab::gui {

struct CustomExample {
  QString name;    ///< the file's "name", else its base name
  ChainStep step;  ///< its (first) custom step
};

/// The embedded examples' folder.
inline const QString kCustomExamplesFolder = QStringLiteral(":/presets/custom");

/// Every *.json in `folder` (a resource path or a directory) with a custom step, sorted by name. Files that
/// do not parse or hold no custom step are skipped with a warning in the log.
std::vector<CustomExample> loadCustomExamples(const QString& folder = kCustomExamplesFolder);

/// The first custom step of `chain`, if any (a file opened into the panel).
std::optional<ChainStep> firstCustomStep(const FilterChain& chain);

}  // namespace convolab::gui
