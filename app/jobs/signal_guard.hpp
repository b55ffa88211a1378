// SPDX-License-Identifier: MIT
// SignalGuard: turns SIGINT/SIGTERM into a stop request the batch (or the app, gui/signal_quit) polls; a
// second signal ends at once, removing the temporaries of outputs being written.
#pragma once

#include <atomic>

#include "exit_codes.hpp"

namespace convolab::jobs {

class SignalGuard {
 public:
  /// Installs the handlers (SIGINT, SIGTERM); the destructor restores the previous ones unless
  /// keepInstalled() was called. The first signal prints `firstSignalMessage` (a string literal; the CLI's by
  /// default) to stderr: it says what happens next, not what happened to a file, which the work reports
  /// itself once it knows.
  explicit SignalGuard(const char* firstSignalMessage = nullptr);
  ~SignalGuard();
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

  /// Puts the previous handlers back now (for work that does not poll the flag).
  void restore();
  /// Leaves the handlers in place until the process exits, so a signal during teardown (static destructors,
  /// OpenCL drivers) sets the flag instead of killing the process with the default action.
  void keepInstalled() { m_installed = false; }
  /// What the first signal prints from now on (a string literal; nullptr: nothing).
  static void setMessage(const char* message);

  /// Set by the first signal; the work stops at the next frame or file and discards what it was writing.
  static const std::atomic<bool>& stopFlag();
  static bool stopRequested() { return stopFlag().load(std::memory_order_relaxed); }

 private:
  bool m_installed = true;
};

}  // namespace convolab::jobs
