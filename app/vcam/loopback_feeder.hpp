// SPDX-License-Identifier: MIT
// Loopback feeder: runs a V4l2LoopbackWriter on its own thread, fed the newest frame through the same
// hand-over as the PipeWire publisher, so a slow device never holds up the preview (frames it misses are
// counted as dropped). An output sink: the app feeds it through the output door.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "output/latest_value.hpp"
#include "output/output_sink.hpp"
#include "vcam/v4l2_loopback_writer.hpp"

namespace convolab::vcam {

class LoopbackFeeder : public output::OutputSink {
 public:
  /// Takes the opened writer; `path` is for people ("/dev/video7").
  LoopbackFeeder(std::unique_ptr<V4l2LoopbackWriter> writer, std::string path);
  ~LoopbackFeeder() override;
  LoopbackFeeder(const LoopbackFeeder&) = delete;
  LoopbackFeeder& operator=(const LoopbackFeeder&) = delete;

  /// Any thread; returns at once.
  void publish(std::shared_ptr<const Image> frame);
  /// OutputSink: publish() of the frame's image.
  void push(const output::OutputFrame& frame) override { publish(frame.image); }
  /// "loopback" (within "virtual_camera"): device, written, dropped, error.
  std::vector<output::SinkFigures> figures() const override;
  /// The figures of a device at `path` with these counts (or why it stopped).
  static output::SinkFigures figuresOf(const std::string& path, std::uint64_t written, std::uint64_t dropped,
                                       const std::string& error);

  const std::string& path() const { return m_path; }
  std::uint64_t written() const { return m_written.load(); }
  std::uint64_t dropped() const { return m_handover.replacedCount(); }
  /// Why writing stopped (the device refused a format or a write); empty while it works.
  std::string error() const;

 private:
  void run();

  std::unique_ptr<V4l2LoopbackWriter> m_writer;
  std::string m_path;
  output::LatestValue<std::shared_ptr<const Image>> m_handover;
  mutable std::mutex m_mutex;  // guards m_stop, m_error; with m_wake, the writer thread's sleep
  std::condition_variable m_wake;
  bool m_stop = false;
  std::string m_error;
  std::atomic<std::uint64_t> m_written{0};
  std::thread m_thread;
};

}  // namespace convolab::vcam
