// SPDX-License-Identifier: MIT
// VideoDeviceStage: the video job's device loop. The engine runs the first frame (it resolves `auto` and
// falls back when a strategy cannot run), then a FrameStream of the strategy that ran pipelines the rest, a
// few frames in flight. Under auto without a stored choice, a CPU device starts a long enough job on codegen
// (its build repays: startingStrategy in the .cpp). When measuring auto's candidates repays itself within the
// video, the measurement runs on its own thread and queue and the stream switches to the winner between
// frames. A chain that is not one filter runs through a VideoChainEngine instead (the engine's chain path,
// which switches the same way).
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
#include "mat_recycler.hpp"
#include "timed_frame.hpp"
#include "video_chain_engine.hpp"
#include "video_job_options.hpp"

namespace convolab::jobs {

/// Output pixels from which codegen's build repays itself in a job, on a CPU device: on PoCL its literal
/// kernel builds ~0.7 s longer than dynamic's (one core) and saves ~9.5 ms of CPU a 1080p frame of a dense
/// 7×7 (3.2–3.4 against 4.4–4.5 s over 120 frames): even in CPU time after ~74 frames of 1080p (153 M pixels;
/// in wall time on an idle machine after ~120, docs/BENCHMARKS.md).
inline constexpr double kCodegenRepaysPixels = 150e6;

/// The rule by which `auto` without a stored choice starts a job on codegen instead of dynamic: a CPU device
/// (a GPU keeps dynamic: its builds are short and nothing here was measured on one), K ≥ 5 after trimming (7
/// was measured; smaller filters keep dynamic, whose kernel leaves less to save), and a job of at least
/// kCodegenRepaysPixels (`frames` ≤ 0: unknown, no).
bool codegenBuildRepays(const DeviceInfo& device, std::int64_t frames, cv::Size size, int trimmedK);

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
  cv::Mat copyOut(const ImageView& v);

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
  MatRecycler m_outputs{8};  // filtered frames for the encoder: its queue (4), the one it writes, spares
  bool m_firstFrame = true;
  bool m_codegenByRule = false;  // auto started on codegen (startingStrategy), not on its provisional one
  std::string m_strategy;
  double m_busyMs = 0;
};

}  // namespace convolab::jobs
