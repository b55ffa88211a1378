// SPDX-License-Identifier: MIT
// The Chain dock's presets: the chain files in a folder (the embedded resources/presets/chains/*.json).
#pragma once

#include <QString>
#include <vector>

#include "convolab/filter_chain.hpp"

namespace convolab::gui {

struct ChainPreset {
  QString name;  ///< the file's "name", else its base name
  FilterChain chain;
};

inline const QString kChainPresetsFolder = QStringLiteral(":/presets/chains");

/// Every *.json in `folder` (a resource path or a directory) that parses as a chain, sorted by name; others
/// are skipped with a warning in the log.
std::vector<ChainPreset> loadChainPresets(const QString& folder = kChainPresetsFolder);

/// What loadChainPresets and the Custom OpenCL examples (custom_examples.hpp) share: every *.json of at most
/// 1 MiB in `folder` that parses as a filter or chain file, named by its "name" else its base name (the chain
/// carries that name too), sorted by name whatever the case. Others are skipped with a warning that calls
/// them `kind` ("chain preset").
std::vector<ChainPreset> readChainFolder(const QString& folder, const char* kind);

}  // namespace convolab::gui
