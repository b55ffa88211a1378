// SPDX-License-Identifier: MIT
// ApplyTally: what `apply` did with its inputs so far (written, skipped, failed), for its summary line and
// exit code; failures are printed as they happen, through the progress line.
#pragma once

#include <iostream>
#include <string>

#include "convolab/error.hpp"
#include "progress_reporter.hpp"

namespace convolab::cli {

struct ApplyTally {
  explicit ApplyTally(ProgressReporter& reporter) : progress(reporter) {}

  /// Counts a failure and prints "convolab-cli: error: <message>"; `kind` decides a single input's exit code.
  void fail(const std::string& message, ErrorKind kind) {
    ++failed;
    lastKind = kind;
    progress.println(std::cerr, std::string("convolab-cli: error: ") + message);
  }

  ProgressReporter& progress;
  int failed = 0, written = 0, skipped = 0;
  ErrorKind lastKind = ErrorKind::BadInput;
};

}  // namespace convolab::cli
