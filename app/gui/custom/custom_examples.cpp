// SPDX-License-Identifier: MIT
// Reading the examples: the chain presets' reader of a folder of filter files (chain_presets.hpp).
#include "custom_examples.hpp"

#include "chain/chain_presets.hpp"

namespace convolab::gui {

std::optional<ChainStep> firstCustomStep(const FilterChain& chain) {
  for (const ChainStep& step : chain.steps())
    if (step.isCustom()) return step;
  return std::nullopt;
}

std::vector<CustomExample> loadCustomExamples(const QString& folder) {
  std::vector<CustomExample> examples;
  for (const ChainPreset& file : readChainFolder(folder, "custom example"))
    if (const std::optional<ChainStep> step = firstCustomStep(file.chain))
      examples.push_back({file.name, *step});
  return examples;
}

}  // namespace convolab::gui
