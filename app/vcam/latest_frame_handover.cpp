// SPDX-License-Identifier: MIT
#include "vcam/latest_frame_handover.hpp"

namespace convolab::vcam {

bool LatestFrameHandover::put(std::shared_ptr<const Image> frame) {
  std::shared_ptr<const Image> old;  // released after the lock: freeing a frame is not done under it
  bool replaced = false;
  {
    std::lock_guard lock(m_mutex);
    replaced = !m_taken && m_newest;
    old = std::exchange(m_newest, std::move(frame));
    m_taken = false;
  }
  m_puts.fetch_add(1, std::memory_order_relaxed);
  if (replaced) m_replaced.fetch_add(1, std::memory_order_relaxed);
  return replaced;
}

std::shared_ptr<const Image> LatestFrameHandover::take() {
  std::lock_guard lock(m_mutex);
  if (m_taken) return nullptr;
  m_taken = true;
  return m_newest;
}

std::shared_ptr<const Image> LatestFrameHandover::peek() const {
  std::lock_guard lock(m_mutex);
  return m_newest;
}

bool LatestFrameHandover::offerAgain() {
  std::lock_guard lock(m_mutex);
  if (!m_newest) return false;
  m_taken = false;
  return true;
}

}  // namespace convolab::vcam
