// SPDX-License-Identifier: MIT
// Progress and cancellation of long preparations (auto's measurements): per-thread hooks, so a GUI can say
// what it waits on, and stop work that a newer request has made pointless.
#pragma once

#include <exception>
#include <functional>
#include <string>
#include <utility>

namespace convolab {

/// Called with what is being done ("measuring strategies"), how many steps are done and how many there are.
using ProgressCallback = std::function<void(const std::string& what, int done, int total)>;

/// Says whether the calling thread's work is still wanted (false) or superseded (true).
using CancelCheck = std::function<bool()>;

/// Thrown at a cancellation point when the thread's CancelCheck says the work is no longer wanted. Not an
/// Error: nothing failed, so fallbacks and "not a candidate" handlers must let it through.
class Cancelled : public std::exception {
 public:
  const char* what() const noexcept override { return "preparation cancelled"; }
};

namespace detail {
inline thread_local ProgressCallback g_progress;
inline thread_local CancelCheck g_cancel;
}  // namespace detail

/// Installs `callback` for the calling thread (empty: none); returns the previous one. Strategies prepared on
/// this thread report through it.
inline ProgressCallback setThreadProgressCallback(ProgressCallback callback) {
  return std::exchange(detail::g_progress, std::move(callback));
}

/// Reports progress to the calling thread's callback, if any. Never throws.
inline void reportProgress(const std::string& what, int done, int total) noexcept {
  try {
    if (detail::g_progress) detail::g_progress(what, done, total);
  } catch (...) {  // a progress display must never break a measurement
  }
}

/// Installs `check` for the calling thread (empty: never cancelled); returns the previous one.
inline CancelCheck setThreadCancelCheck(CancelCheck check) {
  return std::exchange(detail::g_cancel, std::move(check));
}

/// A cancellation point of long work (between auto's measurements): throws Cancelled when the calling
/// thread's check says the work is superseded.
inline void throwIfCancelled() {
  if (detail::g_cancel && detail::g_cancel()) throw Cancelled();
}

}  // namespace convolab
