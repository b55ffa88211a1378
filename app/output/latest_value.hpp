// SPDX-License-Identifier: MIT
// LatestValue: the one "newest wins" hand-over between two threads (capture → processing frames, the
// filter snapshot GUI → processing, processed frames → a sink's own thread).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <utility>

namespace convolab::output {

/// Holds the newest value and whether it was taken. The producer never waits on the consumer: a value put
/// before the previous one was taken replaces it (and is counted). The lock is held for a move only; a
/// replaced value is released after it (freeing a frame is not done under the lock).
template <class T>
class LatestValue {
 public:
  /// Makes `value` the newest; returns the value it replaced when that one was never taken.
  std::optional<T> put(T value) {
    std::optional<T> old;
    bool replaced = false;
    {
      std::lock_guard lock(m_mutex);
      replaced = !m_taken && m_value.has_value();
      old = std::exchange(m_value, std::move(value));
      m_taken = false;
    }
    m_puts.fetch_add(1, std::memory_order_relaxed);
    if (!replaced) return std::nullopt;
    m_replaced.fetch_add(1, std::memory_order_relaxed);
    return old;
  }
  /// The newest value not yet taken (it stays the newest, for peek() and offerAgain()).
  std::optional<T> take() {
    std::lock_guard lock(m_mutex);
    if (m_taken || !m_value) return std::nullopt;
    m_taken = true;
    return m_value;
  }
  /// take(), and the value is gone afterwards (nothing of it is kept).
  std::optional<T> takeAway() {
    std::lock_guard lock(m_mutex);
    m_taken = true;
    return std::exchange(m_value, std::nullopt);
  }
  /// The newest value, taken or not.
  std::optional<T> peek() const {
    std::lock_guard lock(m_mutex);
    return m_value;
  }
  /// Offers the newest value again (a consumer that came later needs one); false when there is none.
  bool offerAgain() {
    std::lock_guard lock(m_mutex);
    if (!m_value) return false;
    m_taken = false;
    return true;
  }
  void clear() {
    std::lock_guard lock(m_mutex);
    m_value.reset();
    m_taken = true;
  }
  std::uint64_t putCount() const { return m_puts.load(std::memory_order_relaxed); }
  std::uint64_t replacedCount() const { return m_replaced.load(std::memory_order_relaxed); }

 private:
  mutable std::mutex m_mutex;
  std::optional<T> m_value;
  bool m_taken = true;
  std::atomic<std::uint64_t> m_puts{0};
  std::atomic<std::uint64_t> m_replaced{0};
};

}  // namespace convolab::output
