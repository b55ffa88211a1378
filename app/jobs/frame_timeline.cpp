// SPDX-License-Identifier: MIT
// FrameTimeline: slot arithmetic of the constant-rate output.
#include "frame_timeline.hpp"

#include <algorithm>
#include <cmath>

namespace convolab::jobs {

std::int64_t FrameTimeline::place(std::int64_t endSlot) {
  const std::int64_t copies = std::max<std::int64_t>(0, endSlot - m_written);
  ++m_decoded;
  m_written += copies;
  if (copies == 0)
    ++m_dropped;
  else
    m_repeated += copies - 1;
  return copies;
}

std::int64_t FrameTimeline::next(double ms) {
  return place(std::llround((ms - m_firstMs) * m_fps / 1000.0));
}

std::int64_t FrameTimeline::finish() {
  return place(std::max(m_declared, m_written + 1));
}

}  // namespace convolab::jobs
