// SPDX-License-Identifier: MIT
// LatestFrameSlot: a one-frame mailbox between the capture and processing threads; newest wins.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>
#include <utility>

#include "frame.hpp"

namespace convolab::capture {

/// Holds at most one frame. A frame put while another waits replaces it (the old one is counted as
/// dropped), so the consumer always gets the newest and never falls behind. A source that delivers the same
/// image again (a still) loses nothing when one delivery replaces another: that is not a drop.
class LatestFrameSlot {
 public:
  /// Stores `frame`; returns true when the slot was empty (the caller then wakes the consumer once).
  bool put(Frame frame) {
    std::lock_guard lock(m_mutex);
    const bool wasEmpty = !m_frame.has_value();
    if (m_counting) {
      ++m_delivered;
      if (!wasEmpty && m_frame->image != frame.image) ++m_dropped;
    }
    m_frame = std::move(frame);
    m_frameCounted = m_counting;
    return wasEmpty;
  }

  /// The waiting frame, if any; `counted` (optional) says whether its delivery was counted in delivered().
  std::optional<Frame> take(bool* counted = nullptr) {
    std::lock_guard lock(m_mutex);
    if (counted) *counted = m_frame.has_value() && m_frameCounted;
    return std::exchange(m_frame, std::nullopt);
  }

  void clear() {
    std::lock_guard lock(m_mutex);
    m_frame.reset();
  }

  /// Frames put so far and how many of them were replaced before being taken.
  std::uint64_t delivered() const {
    std::lock_guard lock(m_mutex);
    return m_delivered;
  }
  std::uint64_t dropped() const {
    std::lock_guard lock(m_mutex);
    return m_dropped;
  }
  void resetCounters() {
    std::lock_guard lock(m_mutex);
    m_delivered = m_dropped = 0;
  }
  /// Off while processing warms up (no engine yet, a build or auto's measurements): frames replaced then are
  /// not the steady state that "Dropped" describes, so they are not counted.
  void setCounting(bool counting) {
    std::lock_guard lock(m_mutex);
    m_counting = counting;
  }
  bool counting() const {
    std::lock_guard lock(m_mutex);
    return m_counting;
  }

 private:
  mutable std::mutex m_mutex;
  std::optional<Frame> m_frame;
  std::uint64_t m_delivered = 0;
  std::uint64_t m_dropped = 0;
  bool m_counting = true;
  bool m_frameCounted = false;  // m_frame was put while counting
};

}  // namespace convolab::capture
