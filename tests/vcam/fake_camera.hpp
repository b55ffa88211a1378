// SPDX-License-Identifier: MIT
// A PipeWire "camera" for the tests: a PipeWirePublisher under a node name, handing over one frame every
// `interval` from its own thread until destroyed (what gst's pipewiresink mode=provide would be, without the
// GStreamer plug-ins). Destroying it is unplugging the camera: the node leaves the graph.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "convolab/image.hpp"
#include "vcam/pipewire_publisher.hpp"

namespace convolab::vcam::test {

class FakeCamera {
 public:
  FakeCamera(const std::string& name, std::shared_ptr<const Image> frame,
             std::chrono::milliseconds interval = std::chrono::milliseconds(10))
      : m_publisher(PublisherOptions{name, name, std::chrono::milliseconds(200)}) {
    m_thread = std::thread([this, frame, interval] {
      while (!m_stop) {
        m_publisher.publish(frame);
        std::this_thread::sleep_for(interval);
      }
    });
  }
  ~FakeCamera() {
    m_stop = true;
    m_thread.join();
  }
  FakeCamera(const FakeCamera&) = delete;
  FakeCamera& operator=(const FakeCamera&) = delete;

 private:
  PipeWirePublisher m_publisher;
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

}  // namespace convolab::vcam::test
