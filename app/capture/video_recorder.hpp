// SPDX-License-Identifier: MIT
// VideoRecorder: writes frames to a video file (MJPG .avi) on its own thread; never blocks the producer. An
// output sink: the app feeds it through the output door.
#pragma once

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "convolab/image.hpp"
#include "output/output_sink.hpp"

namespace convolab::capture {

class VideoRecorder : public output::OutputSink {
 public:
  /// Opens `path` for frames of width×height at `fps`. Throws SourceError when the writer cannot open.
  VideoRecorder(std::filesystem::path path, int width, int height, double fps);
  /// Writes what is queued, then closes the file.
  ~VideoRecorder() override;
  VideoRecorder(const VideoRecorder&) = delete;
  VideoRecorder& operator=(const VideoRecorder&) = delete;

  /// Queues a frame (shared, not copied). Frames of another size, or beyond a few queued, are dropped.
  void push(std::shared_ptr<const Image> frame);
  /// OutputSink: queues the frame's image.
  void push(const output::OutputFrame& frame) override { push(frame.image); }
  /// "recording": path, written, dropped.
  std::vector<output::SinkFigures> figures() const override;
  /// A recording of a still image needs a frame per tick.
  bool wantsRepeats() const override { return true; }

  std::uint64_t written() const;
  std::uint64_t dropped() const;
  const std::filesystem::path& path() const { return m_path; }
  /// The size of the recorded frames: the frames' own, rounded up to even (padded, never cropped).
  int recordedWidth() const;
  int recordedHeight() const;

 private:
  struct Writer;
  void run();

  std::filesystem::path m_path;
  int m_width, m_height;
  std::unique_ptr<Writer> m_writer;
  mutable std::mutex m_mutex;
  std::condition_variable m_wake;
  std::deque<std::shared_ptr<const Image>> m_queue;
  bool m_stop = false;
  std::uint64_t m_written = 0, m_dropped = 0;
  std::thread m_thread;
};

}  // namespace convolab::capture
