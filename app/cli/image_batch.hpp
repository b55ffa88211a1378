// SPDX-License-Identifier: MIT
// ImageBatch: filters many image files, one worker thread per device, each file read, filtered, encoded
// and written atomically; a failure is recorded for its file and the batch goes on.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "batch_plan.hpp"
#include "convolab/context.hpp"
#include "convolab/error.hpp"
#include "convolab/filter.hpp"
#include "convolab/filter_chain.hpp"
#include "convolab/strategy_id.hpp"

namespace convolab::cli {

struct ImageBatchOptions {
  FilterSet filter;
  std::optional<FilterChain> chain;  ///< a chain file of more than one filter: runs instead of `filter`
  std::string strategy = std::string(kAutoStrategy);
  std::vector<std::shared_ptr<Context>> contexts;  ///< one worker per context
  bool overwrite = false;
  bool skipExisting = false;
  std::int64_t maxPixels = 0;
  bool acceptDamaged = false;  ///< filter a damaged image as decoded (with a note) instead of failing it
  const std::atomic<bool>* stop = nullptr;
};

struct ItemOutcome {
  enum class Status { NotRun, Written, Skipped, Failed } status = Status::NotRun;
  std::string message;  ///< the error (Failed), or the "wrote ..." line (Written)
  ErrorKind kind = ErrorKind::BadInput;
};

/// Runs `items` (images only). `done` is called (from worker threads, serialised) after each item.
std::vector<ItemOutcome> runImageBatch(
    const std::vector<BatchItem>& items, const ImageBatchOptions& options,
    const std::function<void(std::size_t index, const ItemOutcome&)>& done);

}  // namespace convolab::cli
