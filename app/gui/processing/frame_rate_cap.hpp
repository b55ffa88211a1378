// SPDX-License-Identifier: MIT
// FrameRateCap: Processing ▸ Limit Frame Rate's gate in the processing worker. A frame over the limit is
// dropped before upload, so no OpenCL work is spent on it. The limit is set from the GUI thread; admit() runs
// on the worker's thread only.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "capture/frame.hpp"

namespace convolab::gui {

/// What the statistics say of the cap (StatsSnapshot::frameRateCap).
struct FrameRateCapFigures {
  double limitFps = 0;
  std::string method;         ///< "camera mode" (the camera delivers at the limit) or "drop before upload"
  std::uint64_t dropped = 0;  ///< frames dropped by the cap since it was set
};

class FrameRateCap {
 public:
  /// 0: no limit.
  void setLimit(double fps);
  double limit() const { return m_limit.load(); }
  std::uint64_t dropped() const { return m_dropped.load(); }

  /// Whether the frame captured at `captured` is processed; false drops it (counted). Keeps to the limit on
  /// average over the source's own timestamps, with a little slack for their jitter, never catching up a
  /// burst after a pause.
  bool admit(capture::Clock::time_point captured);

 private:
  std::atomic<double> m_limit{0};
  std::atomic<std::uint64_t> m_dropped{0};
  std::atomic<std::uint64_t> m_generation{0};  // bumped by setLimit: the worker restarts its schedule
  std::uint64_t m_seen = 0;                    // worker thread only
  capture::Clock::time_point m_next{};         // worker thread only
};

}  // namespace convolab::gui
