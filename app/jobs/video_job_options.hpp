// SPDX-License-Identifier: MIT
// VideoJobOptions: what a video job filters, where it writes, and how it reports and stops.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "convolab/context.hpp"
#include "convolab/filter_chain.hpp"
#include "convolab/strategy_id.hpp"

namespace convolab::jobs {

struct VideoJobOptions {
  std::filesystem::path input, output;
  /// What every frame gets: a filter (a FilterSet converts to the one-step chain) or a chain. A chain whose
  /// one switched-on step is a filter streams that filter (FrameStream) exactly as one filter does; any other
  /// runs through the engine's chain path (VideoChainEngine), switched-off steps skipped.
  FilterChain chain;
  std::string strategy = std::string(kAutoStrategy);
  std::shared_ptr<Context> context;
  std::string codec;  ///< FOURCC; empty: by output extension (videoCodecFor)
  bool overwrite = false;
  const std::atomic<bool>* stop = nullptr;  ///< when it turns true the job stops and discards its output
  /// Frames written so far and the total (≤ 0 when the container does not say). Called from the job's
  /// threads.
  std::function<void(std::int64_t done, std::int64_t total)> progress;
  /// Remarks for the user (audio dropped, streaming unavailable, engine fallbacks).
  std::function<void(const std::string&)> note;
  /// Tests only: under auto, measure whatever the video's length (a measurement that repays itself is not
  /// needed) and wait for it before the second frame, so the mid-run switch comes at a known frame.
  bool measureAndWaitForTesting = false;

  /// Whether `stop` has turned true.
  bool stopping() const { return stop && stop->load(std::memory_order_relaxed); }
  /// Passes `text` to `note`, if set.
  void tell(const std::string& text) const {
    if (note) note(text);
  }
};

}  // namespace convolab::jobs
