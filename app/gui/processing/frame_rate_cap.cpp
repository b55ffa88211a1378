// SPDX-License-Identifier: MIT
// The frame-rate cap's schedule: one frame per period, from the frames' capture times.
#include "processing/frame_rate_cap.hpp"

namespace convolab::gui {

void FrameRateCap::setLimit(double fps) {
  m_limit = fps > 0 ? fps : 0;
  m_dropped = 0;
  ++m_generation;
}

bool FrameRateCap::admit(capture::Clock::time_point captured) {
  const double fps = m_limit.load();
  if (fps <= 0) return true;
  const auto period =
      std::chrono::duration_cast<capture::Clock::duration>(std::chrono::duration<double>(1.0 / fps));
  if (const std::uint64_t g = m_generation.load(); g != m_seen) {
    m_seen = g;
    m_next = captured;
  }
  if (captured + period / 10 < m_next) {  // a tenth of a period early still counts: sources jitter
    ++m_dropped;
    return false;
  }
  // On schedule: the next slot is one period on; after a pause (more than a period late) restart from now.
  m_next = captured - m_next > period ? captured + period : m_next + period;
  return true;
}

}  // namespace convolab::gui
