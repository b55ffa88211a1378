// SPDX-License-Identifier: MIT
// EvenSizeVideoWriter: pads odd frames by replicating the last column / row.
#include "even_size_video_writer.hpp"

#include <algorithm>
#include <cctype>
#include <opencv2/imgproc.hpp>

namespace convolab::capture {

bool EvenSizeVideoWriter::open(const std::filesystem::path& path, const std::string& fourcc, double fps,
                               cv::Size frameSize, std::initializer_list<int> backends) {
  release();
  m_frameSize = frameSize;
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (fourcc == "MJPG" && ext == ".avi") {
    m_mjpeg = std::make_unique<MjpegAviWriter>();
    if (m_mjpeg->open(path, fps, writtenSize())) return true;
    m_mjpeg.reset();
    return false;
  }
  const int code = cv::VideoWriter::fourcc(fourcc[0], fourcc[1], fourcc[2], fourcc[3]);
  for (const int backend : backends)
    if (m_writer.open(path.string(), backend, code, fps, writtenSize(), true)) return true;
  return false;
}

cv::Mat EvenSizeVideoWriter::padded(cv::Mat frame) const {
  const cv::Size even = writtenSize();
  if (frame.cols != even.width || frame.rows != even.height)
    cv::copyMakeBorder(frame, frame, 0, even.height - frame.rows, 0, even.width - frame.cols,
                       cv::BORDER_REPLICATE);
  return frame;
}

bool EvenSizeVideoWriter::isOpened() const {
  return m_mjpeg ? m_mjpeg->isOpened() : m_writer.isOpened();
}

void EvenSizeVideoWriter::write(const cv::Mat& frame) {
  const cv::Size even = writtenSize();
  const cv::Mat& whole = frame.cols == even.width && frame.rows == even.height ? frame : padded(frame);
  if (m_mjpeg)
    m_mjpeg->write(whole);
  else
    m_writer.write(whole);
}

void EvenSizeVideoWriter::release() {
  if (m_mjpeg) m_mjpeg->release();
  m_writer.release();
}

}  // namespace convolab::capture
