// SPDX-License-Identifier: MIT
// BoundedQueue: a closable blocking queue of at most N items, linking the threads of a pipeline.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

namespace convolab::jobs {

template <typename T>
class BoundedQueue {
 public:
  explicit BoundedQueue(std::size_t capacity) : m_capacity(capacity) {}

  /// Holds up to `capacity` items from now on (a producer waiting for room wakes if there is some).
  void setCapacity(std::size_t capacity) {
    std::lock_guard lock(m_mutex);
    m_capacity = capacity;
    m_notFull.notify_all();
  }

  /// Blocks while full; returns false (dropping the item) once the queue is closed.
  bool push(T item) {
    std::unique_lock lock(m_mutex);
    m_notFull.wait(lock, [&] { return m_closed || m_items.size() < m_capacity; });
    if (m_closed) return false;
    m_items.push_back(std::move(item));
    m_notEmpty.notify_one();
    return true;
  }
  /// Blocks while empty; nullopt once the queue is closed and drained.
  std::optional<T> pop() {
    std::unique_lock lock(m_mutex);
    m_notEmpty.wait(lock, [&] { return m_closed || !m_items.empty(); });
    if (m_items.empty()) return std::nullopt;
    T item = std::move(m_items.front());
    m_items.pop_front();
    m_notFull.notify_one();
    return item;
  }
  /// No more pushes: pop() drains what is queued, then returns nullopt.
  void close() {
    std::lock_guard lock(m_mutex);
    m_closed = true;
    m_notEmpty.notify_all();
    m_notFull.notify_all();
  }
  /// Closes and drops what is queued (a stop: nobody will consume it).
  void abort() {
    std::lock_guard lock(m_mutex);
    m_closed = true;
    m_items.clear();
    m_notEmpty.notify_all();
    m_notFull.notify_all();
  }

 private:
  std::size_t m_capacity;
  std::mutex m_mutex;
  std::condition_variable m_notEmpty, m_notFull;
  std::deque<T> m_items;
  bool m_closed = false;
};

}  // namespace convolab::jobs
