// SPDX-License-Identifier: MIT
// LatestFrameSlot: a one-frame mailbox between the capture and processing threads; newest wins.
#pragma once

#include <mutex>
#include <optional>
#include <utility>

#include "frame.hpp"
#include "output/latest_value.hpp"

namespace convolab::capture {

/// Holds at most one frame. A frame put while another waits replaces it (the old one is counted as
/// dropped), so the consumer always gets the newest and never falls behind. A source that delivers the same
/// image again (a still) loses nothing when one delivery replaces another: that is not a drop. The hand-over
/// itself is output::LatestValue; this class adds the counting the statistics read.
class LatestFrameSlot {
 public:
  /// Stores `frame`; returns true when the slot was empty (the caller then wakes the consumer once).
  bool put(Frame frame) {
    std::lock_guard lock(m_mutex);  // counters and the frame change together
    const std::shared_ptr<const Image> image = frame.image;
    const auto replaced = m_frame.put(Delivery{std::move(frame), m_counting});
    if (!replaced) m_waitingSince = Clock::now();  // a newer frame keeps the wait going: the consumer is late
    if (m_counting) {
      ++m_delivered;
      if (replaced && replaced->frame.image != image) ++m_dropped;
    }
    return !replaced.has_value();
  }

  /// The waiting frame, if any; `counted` (optional) says whether its delivery was counted in delivered().
  std::optional<Frame> take(bool* counted = nullptr) {
    std::lock_guard lock(m_mutex);
    auto delivery = m_frame.takeAway();
    m_waitingSince = {};
    if (counted) *counted = delivery && delivery->counted;
    if (!delivery) return std::nullopt;
    return std::move(delivery->frame);
  }

  void clear() {
    std::lock_guard lock(m_mutex);
    m_frame.clear();
    m_waitingSince = {};
  }

  /// Since when a frame has waited in the slot without the consumer taking it (replacements included); the
  /// epoch while it is empty. A long wait means the processing thread is stuck (the preview marks it).
  Clock::time_point waitingSince() const {
    std::lock_guard lock(m_mutex);
    return m_waitingSince;
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
  struct Delivery {
    Frame frame;
    bool counted = false;  // put while counting
  };
  mutable std::mutex m_mutex;
  output::LatestValue<Delivery> m_frame;
  std::uint64_t m_delivered = 0;
  std::uint64_t m_dropped = 0;
  bool m_counting = true;
  Clock::time_point m_waitingSince{};
};

}  // namespace convolab::capture
