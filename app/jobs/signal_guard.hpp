// SPDX-License-Identifier: MIT
// SignalGuard: turns SIGINT/SIGTERM into a stop request the batch (or the app, gui/signal_quit) polls; a
// second signal ends at once, removing the temporaries of outputs being written.
#pragma once

#include <atomic>

#include "exit_codes.hpp"

namespace convolab::jobs {

class SignalGuard {
 public:
  /// Installs the handlers (SIGINT, SIGTERM); the destructor restores the previous ones. The first signal
  /// prints `firstSignalMessage` (a string literal; the CLI's by default) to stderr.
  explicit SignalGuard(const char* firstSignalMessage = nullptr);
  ~SignalGuard();
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

  /// Set by the first signal; the work stops at the next frame or file and discards what it was writing.
  static const std::atomic<bool>& stopFlag();
  static bool stopRequested() { return stopFlag().load(std::memory_order_relaxed); }
};

}  // namespace convolab::jobs
