// VideoFileSource: a video file read with OpenCV, looping at its end, paced at the file's frame rate.
#pragma once

#include <filesystem>
#include <opencv2/videoio.hpp>

#include "frame_source.hpp"
#include "image_pool.hpp"

namespace convolab::capture {

class VideoFileSource : public FrameSource {
 public:
  explicit VideoFileSource(std::filesystem::path path);

  SourceKind kind() const override { return SourceKind::VideoFile; }
  std::string description() const override { return m_path.filename().string(); }
  void open() override;
  void close() override { m_capture.release(); }
  bool read(Frame& out) override;
  double nominalFps() const override { return m_fps; }
  std::string deliveredMode() const override { return m_mode; }
  bool canStep() const override { return true; }

 private:
  std::filesystem::path m_path;
  cv::VideoCapture m_capture;
  cv::Mat m_bgr;
  ImagePool m_pool;
  double m_fps = 30.0;
  std::string m_mode;
  std::int64_t m_index = 0;
};

}  // namespace convolab::capture
