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
  bool deliversStill() const override { return m_onlyFrame != nullptr; }
  std::int64_t position() const override { return m_position; }
  /// Frame positions count in frame intervals of the nominal rate (the frame on screen at that time), so
  /// position() and frameCount() agree with the clip's duration on variable-rate clips and clips with gaps.
  void seek(std::int64_t frame) override;

  /// The time of the frame read() delivered last, in ms from the clip's start (-1 before the first).
  double positionMs() const { return m_positionMs; }
  /// How long the clip lasts, in ms (0 when the container does not say).
  double durationMs() const override { return m_reader ? m_reader->info().durationMs() : 0; }
  /// Moves so that the next read() delivers the frame on screen at `ms`; that frame's Frame::timestampMs is
  /// `ms` (clamped to the clip), the time it is shown at, where positionMs() stays the frame's own time.
  void seekMs(double ms) override;

 private:
  std::filesystem::path m_path;
  std::unique_ptr<VideoReader> m_reader;
  cv::Mat m_bgr;
  ImagePool m_pool{stagingProvider()};
  double m_fps = 30.0;
  std::string m_mode;
  std::int64_t m_maxPixels;
  std::int64_t m_frameCount = 0;
  std::int64_t m_position = -1;  // frame interval of the last frame delivered
  double m_positionMs = -1;
  double m_soughtMs = -1;  // the time the next frame is shown at after a seek (-1: its own)
  // A clip of one frame loops without decoding again: it is shown as a still.
  std::shared_ptr<const Image> m_onlyFrame;
  std::shared_ptr<const Image> m_last;  // the clip's first frame, until a second one is read
  std::int64_t m_index = 0;
};

}  // namespace convolab::capture
