// Video file source: decode, convert BGR→RGB once, rewind at the end so the clip loops.
#include "video_file_source.hpp"

#include <cmath>

#include "mat_convert.hpp"

namespace convolab::capture {

VideoFileSource::VideoFileSource(std::filesystem::path path) : m_path(std::move(path)) {}

void VideoFileSource::open() {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(m_path, ec)) throw SourceError(m_path.string() + ": no such file");
  if (!m_capture.open(m_path.string(), cv::CAP_ANY) || !m_capture.isOpened())
    throw SourceError(m_path.string() + ": not a video OpenCV can decode");
  const double fps = m_capture.get(cv::CAP_PROP_FPS);
  m_fps = std::isfinite(fps) && fps >= 1 && fps <= 480 ? fps : 30.0;
  const int w = static_cast<int>(m_capture.get(cv::CAP_PROP_FRAME_WIDTH));
  const int h = static_cast<int>(m_capture.get(cv::CAP_PROP_FRAME_HEIGHT));
  char buf[96];
  std::snprintf(buf, sizeof buf, "%d×%d video @ %.3g fps", w, h, m_fps);
  m_mode = buf;
}

bool VideoFileSource::read(Frame& out) {
  if (!m_capture.isOpened()) return false;
  if (!m_capture.read(m_bgr) || m_bgr.empty()) {
    // End of the clip: loop. A file that cannot deliver even its first frame has failed.
    m_capture.set(cv::CAP_PROP_POS_FRAMES, 0);
    if (!m_capture.read(m_bgr) || m_bgr.empty()) return false;
  }
  auto image = m_pool.acquire(m_bgr.cols, m_bgr.rows);
  imageFromMat(m_bgr, *image);
  out.image = std::move(image);
  out.index = m_index++;
  out.captured = Clock::now();
  return true;
}

}  // namespace convolab::capture
