// SPDX-License-Identifier: MIT
// EvenSizeVideoWriter: cv::VideoWriter for frames of any size. OpenCV's FFmpeg writer cuts odd sizes to even
// ones (every codec it offers, FFV1 included): an odd-sized frame is padded by one column / row repeating its
// neighbour instead, so no pixel is lost. The one writer of the recorder and the video job. MJPG into .avi
// goes through MjpegAviWriter (libjpeg-turbo, a quarter of FFmpeg's CPU time), every other codec through
// OpenCV.
#pragma once

#include <filesystem>
#include <initializer_list>
#include <memory>
#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>
#include <string>

#include "mjpeg_avi_writer.hpp"

namespace convolab::capture {

class EvenSizeVideoWriter {
 public:
  /// The size written for frames of `frameSize`: each side rounded up to even (padded, never cropped).
  static cv::Size evenSize(cv::Size frameSize) {
    return {(frameSize.width + 1) & ~1, (frameSize.height + 1) & ~1};
  }

  /// Opens `path` for BGR frames of `frameSize` with `fourcc` (4 characters), trying `backends` in order;
  /// false when none opens. OpenCV's exceptions pass through. MJPG into a .avi file takes no backend: it is
  /// written by MjpegAviWriter.
  bool open(const std::filesystem::path& path, const std::string& fourcc, double fps, cv::Size frameSize,
            std::initializer_list<int> backends = {cv::CAP_ANY});
  bool isOpened() const;
  cv::Size frameSize() const { return m_frameSize; }
  cv::Size writtenSize() const { return evenSize(m_frameSize); }

  /// `frame` padded to writtenSize(): pad once when a frame is written several times.
  cv::Mat padded(cv::Mat frame) const;
  /// Writes a frame of frameSize() (padding it) or of writtenSize().
  void write(const cv::Mat& frame);
  /// Closes the file (the destructor does too).
  void release();

 private:
  cv::VideoWriter m_writer;
  std::unique_ptr<MjpegAviWriter> m_mjpeg;  // set instead of m_writer for MJPG in .avi
  cv::Size m_frameSize;
};

}  // namespace convolab::capture
