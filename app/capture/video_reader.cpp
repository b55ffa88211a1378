// SPDX-License-Identifier: MIT
// VideoReader: cv::VideoCapture behind one open path and one set of checks.
#include "video_reader.hpp"

#include <cmath>
#include <opencv2/core/utils/logger.hpp>

#include "cv/image_codec.hpp"
#include "frame_source.hpp"

namespace convolab::capture {

VideoReader::VideoReader(std::filesystem::path path, std::int64_t maxPixels)
    : m_path(std::move(path)), m_maxPixels(maxPixels) {
  open();
}

void VideoReader::open() {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(m_path, ec))
    throw SourceError(std::filesystem::exists(m_path, ec) ? "not a regular file" : "no such file");
  // OpenCV's backends log every failed probe on stderr: our own message says what went wrong.
  cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
  try {
    if (!m_capture.open(m_path.string(), cv::CAP_FFMPEG)) m_capture.open(m_path.string(), cv::CAP_ANY);
  } catch (const cv::Exception& e) {
    throw SourceError(std::string("cannot open it as a video: ") + e.what());
  }
  if (!m_capture.isOpened()) throw SourceError("not a video OpenCV can decode");
  m_info.width = static_cast<int>(m_capture.get(cv::CAP_PROP_FRAME_WIDTH));
  m_info.height = static_cast<int>(m_capture.get(cv::CAP_PROP_FRAME_HEIGHT));
  if (m_maxPixels > 0 && static_cast<std::int64_t>(m_info.width) * m_info.height > m_maxPixels) {
    m_capture.release();
    throw SourceError(opencv::tooLargeMessage("a frame", m_info.width, m_info.height, m_maxPixels));
  }
  const double fps = m_capture.get(cv::CAP_PROP_FPS);
  m_info.nominalFps = std::isfinite(fps) && fps > 0 ? fps : 0;
  const double count = m_capture.get(cv::CAP_PROP_FRAME_COUNT);
  m_info.declaredFrames =
      std::isfinite(count) && count > 0 && count < 1e9 ? static_cast<std::int64_t>(count) : 0;
}

bool VideoReader::read(cv::Mat& bgr) {
  if (!m_capture.isOpened()) return false;
  if (!m_capture.read(bgr) || bgr.empty()) return false;
  if (m_info.width <= 0 || m_info.height <= 0) {  // a backend that did not say before the first frame
    m_info.width = bgr.cols;
    m_info.height = bgr.rows;
  }
  return true;
}

bool VideoReader::seekFrame(std::int64_t frame) {
  return m_capture.isOpened() && m_capture.set(cv::CAP_PROP_POS_FRAMES, static_cast<double>(frame));
}

}  // namespace convolab::capture
