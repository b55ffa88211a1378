// SPDX-License-Identifier: MIT
// `apply` on videos: each through the video job, one after the other, with its progress and summary line.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "apply_tally.hpp"
#include "batch_plan.hpp"
#include "convolab/context.hpp"
#include "convolab/filter.hpp"

namespace convolab::cli {

struct ApplyVideoSettings {
  FilterSet filter;
  bool chain = false;  ///< the filter file is a chain of several steps: refused for videos (for now)
  std::string strategy, codec;
  std::shared_ptr<Context> context;
  bool force = false, skipExisting = false, quiet = false;
};

/// Filters `videos` in order, counting each in `tally`; stops at a signal (SignalGuard).
void applyVideos(const std::vector<BatchItem>& videos, const ApplyVideoSettings& settings, ApplyTally& tally);

}  // namespace convolab::cli
