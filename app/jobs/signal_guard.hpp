// SPDX-License-Identifier: MIT
// SignalGuard: SIGINT, SIGTERM and SIGHUP are blocked in every thread from main's first line and taken by one
// sigwait() thread, which turns them into a stop request the batch (or the app, gui/signal_quit) polls; a
// second signal ends at once, removing the temporaries of outputs being written.
#pragma once

#include <atomic>

#include "jobs/exit_codes.hpp"

namespace convolab::jobs {

class SignalGuard {
 public:
  /// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread, so in every thread it starts later (they
  /// inherit the mask: no library's handler, such as LLVM's inside PoCL, ever runs for them), and starts the
  /// thread that takes them with sigwait(). Call it on main's first line, before any other thread exists;
  /// later calls only set `quitMessage`. Until a SignalGuard exists (and after the last is restored), a
  /// signal removes the temporaries of files being written, prints `quitMessage` and ends the process by the
  /// signal's default action, as a program that does not poll the stop flag expects.
  static void takeSignals(const char* quitMessage = nullptr);

  /// Turns the signals into a stop request (takeSignals() first if no one did). The first signal prints
  /// `firstSignalMessage` (a string literal; the CLI's by default) to stderr: it says what happens next, not
  /// what happened to a file, which the work reports itself once it knows. The destructor restores the
  /// immediate end unless keepInstalled() was called.
  explicit SignalGuard(const char* firstSignalMessage = nullptr);
  ~SignalGuard();
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

  /// Signals end the process at once from now on (for work that does not poll the flag).
  void restore();
  /// Keeps signals a stop request until the process exits, so a signal during teardown (static destructors,
  /// OpenCL drivers) sets the flag instead of ending the process.
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
