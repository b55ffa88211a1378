// SPDX-License-Identifier: MIT
// Latest-frame hand-over: the producer (the app's preview) leaves its newest frame here, the PipeWire thread
// takes it when a consumer wants one. The producer never waits on a consumer: a frame not taken before the
// next arrives is replaced, and counted.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>

#include "convolab/image.hpp"

namespace convolab::vcam {

class LatestFrameHandover {
 public:
  /// Makes `frame` the newest; true when it replaced one that was never taken. The lock is held for a
  /// pointer swap only, never while a frame is converted or sent.
  bool put(std::shared_ptr<const Image> frame);
  /// The newest frame not yet taken, or null.
  std::shared_ptr<const Image> take();
  /// The newest frame, taken or not (what a new consumer or a renegotiation starts from).
  std::shared_ptr<const Image> peek() const;
  /// Offers the newest frame again (a consumer that came while a still image shows needs one); false when
  /// there is none.
  bool offerAgain();

  std::uint64_t putCount() const { return m_puts.load(std::memory_order_relaxed); }
  std::uint64_t replacedCount() const { return m_replaced.load(std::memory_order_relaxed); }

 private:
  mutable std::mutex m_mutex;
  std::shared_ptr<const Image> m_newest;
  bool m_taken = true;
  std::atomic<std::uint64_t> m_puts{0};
  std::atomic<std::uint64_t> m_replaced{0};
};

}  // namespace convolab::vcam
