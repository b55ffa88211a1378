// SPDX-License-Identifier: MIT
// Video recording: a bounded queue drained by a thread that converts RGB→BGR and feeds cv::VideoWriter.
#include "video_recorder.hpp"

#include "convolab/output_path.hpp"
#include "cv/mat_adapter.hpp"
#include "even_size_video_writer.hpp"
#include "frame_source.hpp"

namespace convolab::capture {

namespace {
constexpr std::size_t kMaxQueued = 4;
}

struct VideoRecorder::Writer {
  EvenSizeVideoWriter writer;
};

VideoRecorder::VideoRecorder(std::filesystem::path path, int width, int height, double fps)
    : m_path(std::move(path)), m_width(width), m_height(height), m_writer(std::make_unique<Writer>()) {
  checkOutputPath(m_path, /*overwrite=*/true);  // the dialog asked; never a link, device or FIFO
  // Odd frames are padded, not cropped (recordedWidth/Height say the file's size).
  if (!m_writer->writer.open(m_path, "MJPG", fps > 0 ? fps : 30.0, cv::Size(m_width, m_height)))
    throw SourceError("cannot write a video to " + m_path.string());
  m_thread = std::thread([this] { run(); });
}

VideoRecorder::~VideoRecorder() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_all();
  if (m_thread.joinable()) m_thread.join();
  m_writer->writer.release();
}

void VideoRecorder::push(std::shared_ptr<const Image> frame) {
  {
    std::lock_guard lock(m_mutex);
    if (!frame || frame->width != m_width || frame->height != m_height || m_queue.size() >= kMaxQueued) {
      ++m_dropped;
      return;
    }
    m_queue.push_back(std::move(frame));
  }
  m_wake.notify_one();
}

int VideoRecorder::recordedWidth() const {
  return EvenSizeVideoWriter::evenSize({m_width, m_height}).width;
}

int VideoRecorder::recordedHeight() const {
  return EvenSizeVideoWriter::evenSize({m_width, m_height}).height;
}

std::uint64_t VideoRecorder::written() const {
  std::lock_guard lock(m_mutex);
  return m_written;
}

std::uint64_t VideoRecorder::dropped() const {
  std::lock_guard lock(m_mutex);
  return m_dropped;
}

std::vector<output::SinkFigures> VideoRecorder::figures() const {
  std::lock_guard lock(m_mutex);
  output::SinkFigures f;
  f.key = "recording";
  f.values = {{"path", m_path.string()}, {"written", m_written}, {"dropped", m_dropped}};
  f.line = "recording  " + m_path.string() + ": " + std::to_string(m_written) + " written, " +
           std::to_string(m_dropped) + " dropped";
  return {f};
}

void VideoRecorder::run() {
  for (;;) {
    std::shared_ptr<const Image> frame;
    {
      std::unique_lock lock(m_mutex);
      m_wake.wait(lock, [&] { return m_stop || !m_queue.empty(); });
      if (m_queue.empty()) return;  // stopping, and everything queued is written
      frame = std::move(m_queue.front());
      m_queue.pop_front();
    }
    m_writer->writer.write(opencv::bgrFromImage(*frame));
    std::lock_guard lock(m_mutex);
    ++m_written;
  }
}

}  // namespace convolab::capture
