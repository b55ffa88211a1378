// SPDX-License-Identifier: MIT
// VideoReader: the one way ConvoLab decodes a video file (OpenCV videoio), for the app's video source and
// for the export / `apply` job alike. Frames come out in OpenCV's BGR order.
#pragma once

#include <cstdint>
#include <filesystem>
#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

namespace convolab::capture {

/// What the container says about the video, read when it opens.
struct VideoInfo {
  int width = 0, height = 0;        ///< of the first frame
  double nominalFps = 0;            ///< frames per second the container declares (0 when it does not)
  std::int64_t declaredFrames = 0;  ///< frames the container declares (0 when it does not)
};

class VideoReader {
 public:
  /// Opens `path` (FFmpeg first, then any other backend). Throws SourceError with a reason that does not
  /// repeat the path ("no such file", "not a video OpenCV can decode", ...), so callers can prefix it.
  /// `maxPixels` > 0 refuses larger frames.
  explicit VideoReader(std::filesystem::path path, std::int64_t maxPixels = 0);

  const VideoInfo& info() const { return m_info; }
  const std::filesystem::path& path() const { return m_path; }

  /// Decodes the next frame into `bgr` (CV_8UC3). Returns false at the end of the stream.
  bool read(cv::Mat& bgr);
  /// Moves so that the next read() delivers frame `frame` (0-based). Returns false when the backend refused.
  bool seekFrame(std::int64_t frame);

 private:
  void open();

  std::filesystem::path m_path;
  std::int64_t m_maxPixels;
  cv::VideoCapture m_capture;
  VideoInfo m_info;
};

}  // namespace convolab::capture
