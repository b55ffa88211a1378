// SPDX-License-Identifier: MIT
// VideoReader: the one way ConvoLab decodes a video file (OpenCV videoio), for the app's video source and
// for the export / `apply` job alike. Frames come out in OpenCV's BGR order, each with its presentation time,
// so variable-rate clips and clips with gaps play and export by time, not by frame count.
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>
#include <utility>

#include "frame_size_watch.hpp"

namespace convolab::capture {

/// What the container says about the video, read when it opens. Times are in milliseconds.
struct VideoInfo {
  int width = 0, height = 0;        ///< of the first frame
  double nominalFps = 0;            ///< frames per second the container declares (0 when it does not)
  std::int64_t declaredFrames = 0;  ///< frames the container declares, gaps included (0 when it does not)
  /// declaredFrames at nominalFps (0 when either is unknown): how long the clip lasts, even where fewer
  /// frames decode (sparse timestamps) or they come irregularly (variable rate).
  double durationMs() const {
    return nominalFps > 0 ? 1000.0 * static_cast<double>(declaredFrames) / nominalFps : 0;
  }
  /// The frame interval at nominalFps, or 1000/25 when the container does not say.
  double frameIntervalMs() const { return 1000.0 / (nominalFps > 0 ? nominalFps : 25.0); }
};

class VideoReader {
 public:
  /// Opens `path` (FFmpeg first, then any other backend). Throws SourceError with a reason that does not
  /// repeat the path ("no such file", "not a video OpenCV can decode", ...), so callers can prefix it.
  /// `maxPixels` > 0 refuses larger frames.
  explicit VideoReader(std::filesystem::path path, std::int64_t maxPixels = 0);

  const VideoInfo& info() const { return m_info; }
  const std::filesystem::path& path() const { return m_path; }

  /// Decodes the next frame into `bgr` (CV_8UC3, always the first frame's size). Returns false at the end of
  /// the stream. Throws SourceError when the stream's frame size changes, in any direction: OpenCV keeps
  /// converting to the first size, so a larger frame would come out as the last good one again (frozen) and
  /// a smaller or wider one as garbage. FrameSizeWatch reads the size each packet declares
  /// (docs/RELIABILITY.md, "Videos that lie", for the codecs it covers); FFmpeg's converter error catches a
  /// larger one beyond it.
  bool read(cv::Mat& bgr);
  /// Presentation time of the frame read() delivered last, in ms from the first frame (the decoder's own
  /// position, CAP_PROP_POS_MSEC); -1 before the first read. Strictly increasing: a frame whose time does
  /// not advance (or a backend that gives none) is placed one frame interval after the previous one.
  double timestampMs() const { return m_timestampMs; }
  /// Frames read() delivered since the stream started (after a seek: counted from where it landed).
  std::int64_t framesRead() const { return m_framesRead; }

  /// Moves so that the next read() delivers the frame on screen at `ms`: the last one whose time is ≤ ms
  /// (the first frame for ms ≤ 0; the last frame for ms past the end). Exact on any stream: the decoder
  /// seeks near the target where it can and decodes forward from there.
  void seekMs(double ms);
  /// Starts over: the next read() delivers the first frame (reopens the file, which works on every stream,
  /// even where seeking back to 0 does not, e.g. a one-frame clip).
  void rewind();

 private:
  void open();
  bool decode(cv::Mat& bgr, double& timestampMs);
  /// After a frame was decoded: throws SourceError where the watch saw a packet of another size.
  void checkFrameSize();

  std::filesystem::path m_path;
  std::int64_t m_maxPixels;
  cv::VideoCapture m_capture;
  VideoInfo m_info;
  double m_firstRawMs = -1;  // the decoder's time of the first frame: times count from it
  double m_timestampMs = -1;
  double m_lastDecodedMs = -1;  // time of the frame decode() produced last
  std::int64_t m_framesRead = 0;
  std::deque<std::pair<cv::Mat, double>> m_queued;  // decoded by a seek, delivered by the next reads
  std::unique_ptr<FrameSizeWatch> m_sizeWatch;      // on the FFmpeg backend only (it follows its packets)
  std::int64_t m_decodedSinceSync = 0;              // frames decode() produced since open() or a backend seek
  bool m_seeked = false;                            // the backend seeked: the watch syncs on the next frame
};

}  // namespace convolab::capture
