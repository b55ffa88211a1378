// SPDX-License-Identifier: MIT
// Video file source: decode, convert BGR→RGB once, rewind at the end so the clip loops; seek on request.
#include "video_file_source.hpp"

#include <algorithm>
#include <cmath>

#include "cv/image_codec.hpp"
#include "cv/mat_adapter.hpp"

namespace convolab::capture {

VideoFileSource::VideoFileSource(std::filesystem::path path, std::int64_t maxPixels)
    : m_path(std::move(path)), m_maxPixels(maxPixels) {}

void VideoFileSource::open() {
  if (m_capture.isOpened()) return;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(m_path, ec)) throw SourceError(m_path.string() + ": no such file");
  if (!m_capture.open(m_path.string(), cv::CAP_ANY) || !m_capture.isOpened())
    throw SourceError(m_path.string() + ": not a video OpenCV can decode");
  const double fps = m_capture.get(cv::CAP_PROP_FPS);
  m_fps = std::isfinite(fps) && fps >= 1 && fps <= 480 ? fps : 30.0;
  const int w = static_cast<int>(m_capture.get(cv::CAP_PROP_FRAME_WIDTH));
  const int h = static_cast<int>(m_capture.get(cv::CAP_PROP_FRAME_HEIGHT));
  if (static_cast<std::int64_t>(w) * h > m_maxPixels) {
    m_capture.release();
    throw SourceError(opencv::tooLargeMessage(m_path.filename().string(), w, h, m_maxPixels));
  }
  const double count = m_capture.get(cv::CAP_PROP_FRAME_COUNT);
  m_frameCount = std::isfinite(count) && count > 0 && count < 1e9 ? static_cast<std::int64_t>(count) : 0;
  m_next = 0;
  m_position = -1;
  char buf[96];
  std::snprintf(buf, sizeof buf, "%d×%d video @ %.3g fps", w, h, m_fps);
  m_mode = buf;
}

void VideoFileSource::seek(std::int64_t frame) {
  if (!m_capture.isOpened() || m_frameCount <= 0) return;
  frame = std::clamp<std::int64_t>(frame, 0, m_frameCount - 1);
  m_capture.set(cv::CAP_PROP_POS_FRAMES, static_cast<double>(frame));
  m_next = frame;
}

bool VideoFileSource::read(Frame& out) {
  if (!m_capture.isOpened()) return false;
  if (!m_capture.read(m_bgr) || m_bgr.empty()) {
    // End of the clip: loop. A file that cannot deliver even its first frame has failed.
    m_capture.set(cv::CAP_PROP_POS_FRAMES, 0);
    m_next = 0;
    if (!m_capture.read(m_bgr) || m_bgr.empty()) return false;
  }
  m_position = m_next++;
  // The file's count is an estimate for some containers: trust what was actually read.
  if (m_frameCount > 0 && m_position >= m_frameCount) m_frameCount = m_position + 1;
  auto image = m_pool.acquire(m_bgr.cols, m_bgr.rows);
  opencv::imageFromMat(m_bgr, *image);
  out.image = std::move(image);
  out.index = m_index++;
  out.captured = Clock::now();
  return true;
}

}  // namespace convolab::capture
