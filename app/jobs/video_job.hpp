// SPDX-License-Identifier: MIT
// VideoJob: filters a whole video file (OpenCV videoio) through the engine (a filter or a chain) and writes a
// new video atomically; decode (capture's VideoReader), device (VideoDeviceStage) and encode run on their own
// threads. Used by `apply` and the app's export (through runVideoJob).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <opencv2/core.hpp>
#include <thread>

#include "bounded_queue.hpp"
#include "timed_frame.hpp"
#include "video_codec.hpp"
#include "video_job_options.hpp"
#include "video_job_result.hpp"

namespace convolab {
class AtomicFile;
}
namespace convolab::capture {
class EvenSizeVideoWriter;
class VideoReader;
}  // namespace convolab::capture

namespace convolab::jobs {

class FrameTimeline;
class VideoDeviceStage;

/// Decoded frames the decoder may hold ahead of the device: 4, or as many as 192 MB hold (32 of 1080p, 64 at
/// most), so that while the device stage builds its program (1.5 s for codegen on PoCL, fresh) the idle core
/// decodes ahead instead of waiting.
std::size_t decodeAheadFrames(cv::Size size);

class VideoJob {
 public:
  explicit VideoJob(VideoJobOptions options);
  /// Stops and joins the job's threads if run() left them (it never does), and discards an unfinished output.
  ~VideoJob();
  VideoJob(const VideoJob&) = delete;
  VideoJob& operator=(const VideoJob&) = delete;

  /// Runs the job, once. Throws Error(BadInput) when the input cannot be read or the output cannot be written
  /// (nothing is left behind), Error(Usage) when no codec fits the output, Error(Device) when no strategy can
  /// run.
  VideoJobResult run();

 private:
  using Clock = std::chrono::steady_clock;
  void chooseCodec();
  void openInput();
  void openOutput();
  void decodeLoop();
  void encodeLoop();
  void deviceLoop();
  void stopThreads();
  VideoJobResult stoppedResult();
  void checkAndCommitOutput();
  VideoJobResult finishedResult();

  VideoJobOptions m_options;
  Clock::time_point m_started;
  VideoJobResult m_result;
  std::unique_ptr<capture::VideoReader> m_reader;
  cv::Mat m_first;  // decoded while opening the input: it says the size
  cv::Size m_size;
  std::unique_ptr<FrameTimeline> m_timeline;
  std::unique_ptr<AtomicFile> m_file;
  std::unique_ptr<capture::EvenSizeVideoWriter> m_writer;
  std::unique_ptr<VideoDeviceStage> m_device;
  BoundedQueue<TimedFrame> m_decoded, m_filtered;
  std::exception_ptr m_decodeError, m_encodeError;
  double m_decodeBusyMs = 0, m_encodeBusyMs = 0;
  std::atomic<std::int64_t> m_written{0};
  std::atomic<bool> m_encodeFailed{false};
  std::atomic<bool> m_cutShort{false};  // the encoder stopped inside a frame's repeats at a signal
  std::thread m_decoder, m_encoder;
};

/// VideoJob(options).run().
VideoJobResult runVideoJob(const VideoJobOptions& options);

}  // namespace convolab::jobs
