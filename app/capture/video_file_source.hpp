// SPDX-License-Identifier: MIT
// VideoFileSource: a video file read through VideoReader, looping at its end, paced at the file's frame rate.
#pragma once

#include <filesystem>
#include <memory>

#include "cv/image_codec.hpp"
#include "frame_source.hpp"
#include "image_pool.hpp"
#include "video_reader.hpp"

namespace convolab::capture {

class VideoFileSource : public FrameSource {
 public:
  /// Refuses (on open) videos whose frames have more than `maxPixels` pixels.
  explicit VideoFileSource(std::filesystem::path path, std::int64_t maxPixels = opencv::kDefaultMaxPixels);

  SourceTraits traits() const override { return {.kindName = "Video", .isFile = true}; }
  std::string description() const override { return m_path.filename().string(); }
  void open() override;
  void close() override { m_reader.reset(); }
  bool read(Frame& out) override;
  double nominalFps() const override { return m_fps; }
  std::string deliveredMode() const override { return m_mode; }
  bool canStep() const override { return true; }
  std::int64_t frameCount() const override { return m_frameCount; }
  std::int64_t position() const override { return m_position; }
  void seek(std::int64_t frame) override;

 private:
  std::filesystem::path m_path;
  std::unique_ptr<VideoReader> m_reader;
  cv::Mat m_bgr;
  ImagePool m_pool{stagingProvider()};
  double m_fps = 30.0;
  std::string m_mode;
  std::int64_t m_maxPixels;
  std::int64_t m_frameCount = 0;
  std::int64_t m_next = 0;       // file position of the next read
  std::int64_t m_position = -1;  // file position of the last frame delivered
  std::int64_t m_index = 0;
};

}  // namespace convolab::capture
