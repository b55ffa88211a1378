// SPDX-License-Identifier: MIT
// Video recording: a bounded queue drained by a thread that converts RGB→BGR and feeds cv::VideoWriter.
#include "video_recorder.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "convolab/output_path.hpp"
#include "cv/mat_adapter.hpp"
#include "frame_source.hpp"

namespace convolab::capture {

namespace {
constexpr std::size_t kMaxQueued = 4;
}

struct VideoRecorder::Writer {
  cv::VideoWriter writer;
};

VideoRecorder::VideoRecorder(std::filesystem::path path, int width, int height, double fps)
    : m_path(std::move(path)), m_width(width), m_height(height), m_writer(std::make_unique<Writer>()) {
  checkOutputPath(m_path, /*overwrite=*/true);  // the dialog asked; never a link, device or FIFO
  // OpenCV's video writer cuts odd sizes to even ones: odd frames are padded by one column / row repeating
  // their neighbour instead, so the recording keeps every pixel (recordedWidth/Height say the file's size).
  if (!m_writer->writer.open(m_path.string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'),
                             fps > 0 ? fps : 30.0, cv::Size(recordedWidth(), recordedHeight()), true))
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
    cv::Mat bgr = opencv::bgrFromImage(*frame);
    if (bgr.cols != recordedWidth() || bgr.rows != recordedHeight())
      cv::copyMakeBorder(bgr, bgr, 0, recordedHeight() - bgr.rows, 0, recordedWidth() - bgr.cols,
                         cv::BORDER_REPLICATE);
    m_writer->writer.write(bgr);
    std::lock_guard lock(m_mutex);
    ++m_written;
  }
}

}  // namespace convolab::capture
