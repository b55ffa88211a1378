// SPDX-License-Identifier: MIT
// FrameTimeline: slot arithmetic of the constant-rate output.
#include "frame_timeline.hpp"

#include <algorithm>
#include <cmath>

namespace convolab::jobs {

std::int64_t FrameTimeline::place(std::int64_t endSlot) {
  // One frame fills at most kMaxHoldSeconds (at least one interval): the rest of a longer gap is cut.
  const auto maxCopies = std::max<std::int64_t>(1, std::llround(kMaxHoldSeconds * m_fps));
  if (endSlot - m_written > maxCopies) {
    m_cut += endSlot - m_written - maxCopies;
    endSlot = m_written + maxCopies;
  }
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
  // A time too large for a slot count (a corrupt timestamp) counts as a gap; the bound in place() cuts it.
  const double slot = (ms - m_firstMs) * m_fps / 1000.0;
  const double bounded = std::clamp(slot, -1e15, 1e15);
  return place(std::llround(bounded) - m_cut);
}

std::int64_t FrameTimeline::finish() {
  return place(std::max(m_declared - m_cut, m_written + 1));
}

}  // namespace convolab::jobs
