// SPDX-License-Identifier: MIT
// VideoReader: cv::VideoCapture behind one open path and one set of checks, with each frame's time.
#include "video_reader.hpp"

#include <cmath>
#include <opencv2/core/utils/logger.hpp>
#include <optional>
#include <string>

#include "cv/image_codec.hpp"
#include "decoder_log_watch.hpp"
#include "frame_source.hpp"

namespace convolab::capture {
namespace {

/// Seeking ahead by decoding costs one decode a frame; beyond this distance the backend's own seek is tried
/// first (it lands on a keyframe before the target, checked by the frame's time).
constexpr double kDecodeForwardMs = 2000;
/// Times computed through different time bases differ by rounding noise (7 frames at 10 fps read back as
/// 700.0000001 ms), and containers keep whole milliseconds (frame 2 of a 30 fps clip, at 66.67 ms, is stored
/// as 67): a frame within half a millisecond of a seek's target counts as at the target.
constexpr double kSameTimeMs = 0.5;
/// How many frames ahead of the one decoded FrameSizeWatch checks: OpenCV 4.6 gives FFmpeg's decoder one
/// thread a CPU, and a frame-threaded decoder holds a packet a thread beyond the frame it delivers, plus its
/// reordering delay (at most 16 frames in H.264 and HEVC). OpenCV converts each frame with the decoder's
/// latest size, so the frames before a change within that reach would already come out garbled.
int sizeLookaheadFrames() {
  static const int frames = cv::getNumberOfCPUs() + 16 + 1;
  return frames;
}

}  // namespace

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
  m_capture.release();
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
  m_info.nominalFps = std::isfinite(fps) && fps > 0 && fps <= 1000 ? fps : 0;
  const double count = m_capture.get(cv::CAP_PROP_FRAME_COUNT);
  m_info.declaredFrames =
      std::isfinite(count) && count > 0 && count < 1e9 ? static_cast<std::int64_t>(std::llround(count)) : 0;
  m_firstRawMs = -1;
  m_timestampMs = m_lastDecodedMs = -1;
  m_framesRead = 0;
  m_queued.clear();
  m_sizeWatch.reset();
  if (m_capture.getBackendName() == "FFMPEG") m_sizeWatch = std::make_unique<FrameSizeWatch>(m_path);
  m_decodedSinceSync = 0;
  m_seeked = false;
}

void VideoReader::checkFrameSize() {
  if (!m_sizeWatch) return;
  std::optional<FrameSizeWatch::Change> change;
  if (m_seeked) {
    change = m_sizeWatch->sync(m_capture.get(cv::CAP_PROP_POS_MSEC));
    m_decodedSinceSync = 0;
    m_seeked = false;
  }
  if (!change) change = m_sizeWatch->check(++m_decodedSinceSync + sizeLookaheadFrames());
  if (!change) return;
  const auto text = [](FrameSizeWatch::Size s) {
    return std::to_string(s.width) + "x" + std::to_string(s.height);
  };
  const std::string after = change->frame >= 0 ? " after " + std::to_string(change->frame) + " frames" : "";
  throw SourceError("the frame size changes" + after + " (from " + text(change->from) + " to " +
                    text(change->to) + "); OpenCV cannot decode frames of another size in the same stream");
}

bool VideoReader::decode(cv::Mat& bgr, double& timestampMs) {
  if (!m_capture.isOpened()) return false;
  DecoderLogWatch watch;
  if (!m_capture.read(bgr) || bgr.empty()) return false;
  checkFrameSize();
  if (watch.takeConversionFailure() ||
      (m_info.width > 0 && (bgr.cols != m_info.width || bgr.rows != m_info.height)))
    throw SourceError("the frame size changes after " + std::to_string(m_framesRead) + " frames (from " +
                      std::to_string(m_info.width) + "x" + std::to_string(m_info.height) +
                      "); OpenCV cannot decode frames of another size in the same stream");
  if (m_info.width <= 0 || m_info.height <= 0) {  // a backend that did not say before the first frame
    m_info.width = bgr.cols;
    m_info.height = bgr.rows;
  }
  const double raw = m_capture.get(cv::CAP_PROP_POS_MSEC);
  if (m_firstRawMs < 0) m_firstRawMs = std::isfinite(raw) && raw >= 0 ? raw : 0;
  double ms = std::isfinite(raw) ? raw - m_firstRawMs : -1;
  // Times must advance: a repeated or missing time puts the frame one interval after the previous one.
  if (m_lastDecodedMs >= 0 && !(ms > m_lastDecodedMs)) ms = m_lastDecodedMs + m_info.frameIntervalMs();
  if (ms < 0) ms = 0;
  m_lastDecodedMs = timestampMs = ms;
  return true;
}

bool VideoReader::read(cv::Mat& bgr) {
  double ms = 0;
  if (!m_queued.empty()) {
    bgr = std::move(m_queued.front().first);
    ms = m_queued.front().second;
    m_queued.pop_front();
  } else if (!decode(bgr, ms)) {
    return false;
  }
  m_timestampMs = ms;
  ++m_framesRead;
  return true;
}

void VideoReader::rewind() {
  open();
}

void VideoReader::seekMs(double ms) {
  ms += kSameTimeMs;
  // Decoding resumes from the current position when the target is ahead and near: the frame after the one
  // delivered last must not be past the target (the delivered one is gone; then start afresh).
  const double here = !m_queued.empty() ? m_queued.front().second : m_lastDecodedMs;
  bool forward = here >= 0 && ms >= here && ms - here <= kDecodeForwardMs;
  if (forward && m_queued.empty()) {
    cv::Mat frame;
    double t = 0;
    if (decode(frame, t)) m_queued.emplace_back(std::move(frame), t);
    forward = !m_queued.empty() && m_queued.front().second <= ms;
  }
  if (!forward) {
    // The backend's seek when it saves decoding (verified: it must land at or before the target), else
    // the start.
    m_queued.clear();
    bool landed = false;
    if (ms > kDecodeForwardMs && m_firstRawMs >= 0 &&
        m_capture.set(cv::CAP_PROP_POS_MSEC, m_firstRawMs + ms - kDecodeForwardMs)) {
      m_seeked = true;
      m_lastDecodedMs = -1;  // the backend moved: times are read afresh from where it landed
      cv::Mat frame;
      double t = 0;
      landed = decode(frame, t) && t <= ms;
      if (landed) m_queued.emplace_back(std::move(frame), t);
    }
    if (!landed) open();
  }
  // Forward from the first queued (or next decoded) frame: keep the last one whose time is ≤ ms, and the one
  // after it (decoded to find out, delivered next).
  while (m_queued.size() > 1 && m_queued[1].second <= ms) m_queued.pop_front();
  while (m_queued.size() < 2) {
    cv::Mat frame;
    double t = 0;
    if (!decode(frame, t)) break;
    m_queued.emplace_back(std::move(frame), t);
    if (m_queued.size() == 2 && m_queued[1].second <= ms) m_queued.pop_front();
  }
  m_framesRead = 0;
}

}  // namespace convolab::capture
