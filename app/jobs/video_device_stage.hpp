// SPDX-License-Identifier: MIT
// VideoDeviceStage: the video job's device loop. The engine runs the first frame (it resolves `auto` and
// falls back when a strategy cannot run), then a FrameStream of the strategy that ran pipelines the rest, a
// few frames in flight. When measuring auto's candidates repays itself within the video, the measurement runs
// on its own thread and queue and the stream switches to the winner between frames. A chain that is not one
// filter runs through a VideoChainEngine instead (the engine's chain path, which switches the same way).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <utility>

#include "bounded_queue.hpp"
#include "convolab/auto_choices.hpp"
#include "convolab/engine.hpp"
#include "convolab/frame_stream.hpp"
#include "timed_frame.hpp"
#include "video_chain_engine.hpp"
#include "video_job_options.hpp"

namespace convolab::jobs {

class VideoDeviceStage {
 public:
  /// Filters BGR frames of `size` with `options`' chain (a filter's channels reversed) into `filtered`.
  /// `declaredFrames` (≤ 0: unknown) decides whether auto's measurement repays itself.
  VideoDeviceStage(const VideoJobOptions& options, cv::Size size, std::int64_t declaredFrames,
                   BoundedQueue<TimedFrame>& filtered);
  /// Cancels a measurement still running: its future waits for it.
  ~VideoDeviceStage();
  VideoDeviceStage(const VideoDeviceStage&) = delete;
  VideoDeviceStage& operator=(const VideoDeviceStage&) = delete;

  /// Filters one decoded frame; results reach `filtered` in order.
  void process(const TimedFrame& frame);
  /// After the last frame: waits for the frames in flight while `keepGoing` holds, then ends the stream and
  /// the measurement (nothing is left to repay it).
  void finish(const std::function<bool()>& keepGoing);
  /// Ends a measurement still running (the job stops).
  void cancelMeasurement();
  /// What ran: "auto:tiled/…" (a chain: "auto (chain: 1 auto:dynamic, 2 magnitude)"), with " -> …" after a
  /// switch.
  std::string strategy() const;
  /// Busy time so far (ms).
  double busyMs() const { return m_busyMs; }

 private:
  using Clock = std::chrono::steady_clock;
  void processOnEngine(const TimedFrame& frame, Clock::time_point started);
  void startStream(double firstKernelMs);
  void startMeasurementIfItRepays(double firstKernelMs);
  void switchToMeasuredWinner();
  void drainOne();

  const VideoJobOptions& m_options;
  const FilterSet m_filter;
  const cv::Size m_size;
  const std::int64_t m_declaredFrames;
  BoundedQueue<TimedFrame>& m_filtered;
  Engine m_engine;
  std::unique_ptr<VideoChainEngine> m_chain;  // set when the chain is not one filter: it runs every frame
  std::unique_ptr<FrameStream> m_stream;
  // Declared before the future: it outlives it (the future's end waits for the measurement).
  std::atomic<bool> m_measurementCancelled{false};
  std::future<AutoChoice> m_measurement;
  std::deque<std::pair<int, std::int64_t>> m_inFlight;  // stream slot, copies
  bool m_firstFrame = true;
  std::string m_strategy;
  double m_busyMs = 0;
};

}  // namespace convolab::jobs
