// SPDX-License-Identifier: MIT
// `apply` on videos: each through the video job, one after the other, with its progress and summary line.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "apply_tally.hpp"
#include "batch_plan.hpp"
#include "convolab/context.hpp"
#include "convolab/filter_chain.hpp"

namespace convolab::cli {

struct ApplyVideoSettings {
  FilterChain chain;  ///< the filter file: one filter, or a chain (the video job runs either)
  std::string strategy, codec;
  std::shared_ptr<Context> context;
  bool force = false, skipExisting = false, quiet = false;
};

/// Filters `videos` in order, counting each in `tally`; stops at a signal (SignalGuard).
void applyVideos(const std::vector<BatchItem>& videos, const ApplyVideoSettings& settings, ApplyTally& tally);

}  // namespace convolab::cli
