// SPDX-License-Identifier: MIT
#include "output/sink_figures.hpp"

namespace convolab::output {

const SinkFigures* findFigures(const std::vector<SinkFigures>& list, const std::string& key) {
  for (const SinkFigures& f : list)
    if (f.key == key) return &f;
  return nullptr;
}

}  // namespace convolab::output
