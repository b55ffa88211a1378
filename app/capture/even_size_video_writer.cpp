// SPDX-License-Identifier: MIT
// EvenSizeVideoWriter: pads odd frames by replicating the last column / row.
#include "even_size_video_writer.hpp"

#include <opencv2/imgproc.hpp>

namespace convolab::capture {

bool EvenSizeVideoWriter::open(const std::filesystem::path& path, const std::string& fourcc, double fps,
                               cv::Size frameSize, std::initializer_list<int> backends) {
  m_frameSize = frameSize;
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

void EvenSizeVideoWriter::write(const cv::Mat& frame) {
  const cv::Size even = writtenSize();
  if (frame.cols == even.width && frame.rows == even.height)
    m_writer.write(frame);
  else
    m_writer.write(padded(frame));
}

}  // namespace convolab::capture
