// SPDX-License-Identifier: MIT
// VideoChainEngine: the video job's device work for a chain that is not one filter (several steps, a
// magnitude, custom OpenCL): every frame through the engine's chain path (ChainRunner: one strategy per step,
// fused or step by step), one frame at a time. As the app's live chain, it starts at once step by step; under
// auto, when measuring repays itself within the video, the steps' strategies and fused against step by step
// are measured on a queue of their own, and the engine prepared there replaces the running one between
// frames.
#pragma once

#include <atomic>
#include <cstdint>
#include <future>
#include <memory>
#include <opencv2/core.hpp>
#include <string>

#include "convolab/engine.hpp"
#include "convolab/filter_chain.hpp"
#include "timed_frame.hpp"
#include "video_job_options.hpp"

namespace convolab::jobs {

/// What the measurement prepared: the engine to switch to and the two kernel times it compared (ms a frame;
/// fusedMs < 0 when the chain cannot run fused here).
struct MeasuredChain {
  std::unique_ptr<Engine> engine;
  double fusedMs = -1, stepsMs = 0;
};

class VideoChainEngine {
 public:
  /// Runs `options.chain` on BGR frames of `size`: its filter and magnitude steps with their channels
  /// reversed (as the one-filter path does); a chain with a custom OpenCL step on frames converted to RGB and
  /// back (the user's code reads RGB). `declaredFrames` (≤ 0: unknown) decides whether measuring repays
  /// itself.
  VideoChainEngine(const VideoJobOptions& options, cv::Size size, std::int64_t declaredFrames);
  /// Cancels a measurement still running: its future waits for it.
  ~VideoChainEngine();
  VideoChainEngine(const VideoChainEngine&) = delete;
  VideoChainEngine& operator=(const VideoChainEngine&) = delete;

  /// Filters one decoded frame (its time is the `time` a custom step sees); the result is a Mat of its own.
  cv::Mat filter(const TimedFrame& frame);
  /// Ends a measurement still running (the video is done, or the job stops).
  void cancelMeasurement() { m_cancelled = true; }
  /// What ran: "auto (chain: 1 auto:dynamic, 2 magnitude)", with " -> auto (chain: 1 fused)" after a switch.
  std::string strategy() const;

 private:
  void startMeasurementIfItRepays(double firstKernelMs, const ImageView& firstInput);
  void switchToMeasuredEngine();

  const VideoJobOptions& m_options;
  const cv::Size m_size;
  const std::int64_t m_declaredFrames;
  const bool m_convertColours;  // a custom step: frames go to the engine in RGB
  const FilterChain m_chain;    // as the engine runs it (channels reversed for BGR, unless converted)
  std::unique_ptr<Engine> m_engine;
  // Declared before the future: it outlives it (the future's end waits for the measurement).
  std::atomic<bool> m_cancelled{false};
  std::future<MeasuredChain> m_measurement;
  bool m_firstFrame = true;
  std::int64_t m_frames = 0;       // filtered so far
  std::string m_strategy, m_last;  // what ran (with its switches), and what ran last
};

}  // namespace convolab::jobs
