// SPDX-License-Identifier: MIT
// Progress of long preparations (auto's measurements): a per-thread callback, so a GUI can say what it waits
// on.
#pragma once

#include <functional>
#include <string>
#include <utility>

namespace convolab {

/// Called with what is being done ("measuring strategies"), how many steps are done and how many there are.
using ProgressCallback = std::function<void(const std::string& what, int done, int total)>;

namespace detail {
inline thread_local ProgressCallback g_progress;
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

}  // namespace convolab
