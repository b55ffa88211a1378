// SPDX-License-Identifier: MIT
// The preview's stale state: an older filter's (or an unfiltered) frame, marked after a short grace.
#include "preview/preview_stale_mark.hpp"

#include <algorithm>

namespace convolab::gui {

void PreviewStaleMark::setCurrentRevision(std::uint64_t revision) {
  m_currentRevision = std::max(m_currentRevision, revision);
}

bool PreviewStaleMark::update(const FrameRecord* shown) {
  const bool stale =
      shown && !shown->bypassed && (shown->unfiltered || shown->filterRevision < m_currentRevision);
  if (stale == m_stale) return false;
  m_stale = stale;
  if (stale) m_since = std::chrono::steady_clock::now();
  return true;
}

bool PreviewStaleMark::due() const {
  return m_stale && std::chrono::steady_clock::now() - m_since >= kGrace;
}

}  // namespace convolab::gui
