// SPDX-License-Identifier: MIT
// A small libpipewire consumer for the tests: connects to a node by name, asks for one format, and keeps the
// frames it receives converted back to RGB. A stalled consumer takes one frame and then never reads again.
#pragma once

#include <pipewire/pipewire.h>

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "convolab/image.hpp"
#include "pipewire/video_format.hpp"

namespace convolab::vcam::test {

using namespace convolab::pipewire;

class TestConsumer {
 public:
  TestConsumer(const std::string& target, VideoFormat format, bool stalled = false);
  ~TestConsumer();

  /// Waits until `count` frames arrived (at most `timeout`); true if they did.
  bool waitForFrames(std::size_t count, std::chrono::milliseconds timeout);
  std::size_t frameCount() const;
  /// The newest frame received, back in RGB.
  Image lastFrame() const;
  /// From now on every frame is kept (frames()), not only the newest.
  void keepEveryFrame();
  std::vector<Image> frames() const;

 private:
  static void onProcess(void* data);
  static void onParamChanged(void* data, std::uint32_t id, const spa_pod* param);

  VideoFormat m_format;
  bool m_stalled;
  pw_thread_loop* m_loop = nullptr;
  pw_stream* m_stream = nullptr;
  int m_width = 0, m_height = 0;
  mutable std::mutex m_mutex;
  std::size_t m_count = 0;
  Image m_last;
  bool m_keepAll = false;
  std::vector<Image> m_all;
};

/// Whether the graph of the daemon we are connected to has a node with this node.name (asked over a fresh
/// connection, so it also tells whether the daemon answers).
bool nodeExists(const std::string& name);

}  // namespace convolab::vcam::test
