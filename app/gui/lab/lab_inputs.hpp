// SPDX-License-Identifier: MIT
// LabInputs: what the lab's tools run on — the current frame, filter and device, taken on the GUI thread.
#pragma once

#include <QString>
#include <functional>
#include <memory>

#include "convolab/filter.hpp"
#include "convolab/filter_chain.hpp"
#include "convolab/image.hpp"
#include "convolab/strategy_id.hpp"

namespace convolab::lab {

struct LabInputs {
  std::shared_ptr<const Image> frame;  ///< the newest original (unfiltered) frame; null when none
  FilterSet filter;
  /// What the preview runs (Pipeline::chain): a custom OpenCL step here is what Kernel Source shows.
  FilterChain chain;
  QString deviceSpec;           ///< empty: the default device
  StrategyId liveStrategy;      ///< what ran the newest frame, e.g. auto:tiled/16x8 (empty name: nothing yet)
  bool liveChainFused = false;  ///< the newest frame ran its chain fused, in one launch
};

using LabInputsProvider = std::function<LabInputs()>;

}  // namespace convolab::lab
