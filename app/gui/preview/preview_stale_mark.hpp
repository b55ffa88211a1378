// SPDX-License-Identifier: MIT
// PreviewStaleMark: whether the shown frame was made with an older filter than the editor's (or passed
// through unfiltered while the engine is prepared), and whether that has lasted long enough to be marked.
#pragma once

#include <chrono>
#include <cstdint>

#include "processing/processed_frame.hpp"

namespace convolab::gui {

class PreviewStaleMark {
 public:
  /// A stale frame is marked once it has been stale this long: a frame or two in flight after each keystroke
  /// is normal and would only flicker.
  static constexpr auto kGrace = std::chrono::milliseconds(150);

  /// The newest filter revision the editor published (a lower one is ignored); call update() after it.
  void setCurrentRevision(std::uint64_t revision);
  /// Judges the shown frame's record (null: no frame) again; true when stale() changed.
  bool update(const FrameRecord* shown);
  bool stale() const { return m_stale; }
  /// Stale for kGrace or longer.
  bool due() const;

 private:
  std::uint64_t m_currentRevision = 0;
  std::chrono::steady_clock::time_point m_since{};
  bool m_stale = false;
};

}  // namespace convolab::gui
