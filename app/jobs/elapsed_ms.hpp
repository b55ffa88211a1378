// SPDX-License-Identifier: MIT
#pragma once
// Milliseconds since a steady-clock time: the video job's and its device stage's progress and timings.
#include <chrono>

namespace convolab::jobs {
inline double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace convolab::jobs
