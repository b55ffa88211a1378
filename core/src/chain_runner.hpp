// SPDX-License-Identifier: MIT
// ChainRunner: the engine's chain path — one strategy per filter step, a magnitude kernel per magnitude step,
// intermediate images in device buffers, per-step timings.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/engine.hpp"
#include "convolab/filter_chain.hpp"
#include "convolab/strategy.hpp"
#include "custom_step.hpp"
#include "fused_chain.hpp"
#include "magnitude_step.hpp"

namespace convolab {

/// Runs a FilterChain of more than one step (or of a magnitude) for the Engine: upload once, every
/// switched-on step on the device (each reads the previous step's rounded uchar image from a ping-pong
/// buffer), download once. A filter step runs the requested strategy (auto chooses per step), falling back as
/// the engine does.
class ChainRunner {
 public:
  explicit ChainRunner(std::shared_ptr<Context> context) : m_context(std::move(context)) {}

  /// Takes effect on the next frame; steps that did not change keep their prepared strategy.
  void setChain(const FilterChain& chain);
  const FilterChain& chain() const { return m_chain; }
  void setFusion(ChainFusion fusion);
  /// Provisional (the app's live engine): the chain runs step by step, fusion is neither built nor measured,
  /// and under `auto` a step that has no strategy yet runs `dynamic` (one program per device) instead of a
  /// new `auto` instance; the fused choice and auto's per-step choices come from an engine prepared off the
  /// live path. Changing it chooses fusion again on the next frame.
  void setProvisional(bool provisional);
  bool provisional() const { return m_provisional; }
  /// Whether setProvisional(true), setChain(chain) and prepare(width, height, requested) would build no
  /// program: same size and requested strategy, and every switched-on step unchanged, a filter step whose
  /// strategy re-prepares without a build (Strategy::preparesWithoutBuild), or a new filter step under
  /// `auto`.
  bool preparesWithoutBuild(const FilterChain& chain, int width, int height,
                            const std::string& requested) const;
  /// Whether the last frame ran fused (one launch, "convolve_fused").
  bool runsFused() const { return m_useFused; }

  /// Prepares every step for width×height with `requested` (a registry name), as process() would first.
  void prepare(int width, int height, const std::string& requested);
  /// One frame through the chain. Stage names are "step N: <kernel>"; FrameTimings::strategy is left to the
  /// caller (activeId).
  FrameTimings process(const ImageView& in, const MutableImageView& out, const std::string& requested);
  /// {requested} with a note naming what each step ran: "chain: 1 auto:dynamic, 2 magnitude, 3 tiled".
  StrategyId activeId(const std::string& requested) const;
  /// What each switched-on step ran ("auto:tiled/b4x2-wg16x8", "magnitude"), in order.
  std::vector<std::string> stepStrategies() const;
  std::vector<std::string> takeNotices() { return std::exchange(m_notices, {}); }
  /// The `time` custom steps see on the next frames, in seconds; nullopt (the default): seconds since this
  /// runner was made.
  void setFrameTime(std::optional<double> seconds) { m_time = seconds; }
  /// The warnings of the custom steps' last builds, each with its step number (1-based, switched-on steps).
  std::vector<std::pair<int, KernelDiagnostic>> customWarnings() const;

 private:
  struct Step {
    ChainStep step;
    std::unique_ptr<Strategy> strategy;        ///< filter steps
    std::unique_ptr<MagnitudeStep> magnitude;  ///< magnitude steps
    std::unique_ptr<CustomStep> custom;        ///< custom OpenCL steps
    bool dirty = true;
  };
  void ensureBuffers(int width, int height);
  void prepareStep(Step& s, int width, int height, const std::string& requested);
  bool tryStrategy(Step& s, const std::string& name, int width, int height, const std::string& requested);
  void notice(const std::string& message);
  double frameTime() const;
  void chooseFusion(const std::string& requested);
  /// Enqueue the chain after `wait` from buffer 0: the named kernel events, and the buffer it ends in.
  int enqueueSteps(std::vector<std::pair<std::string, cl::Event>>& kernels, std::vector<cl::Event> wait,
                   int width, int height);
  int enqueueFused(std::vector<std::pair<std::string, cl::Event>>& kernels,
                   const std::vector<cl::Event>& wait, int width, int height);
  /// Auto's comparison on the uploaded frame: three runs of each, the faster kept, one notice.
  void measureFusion(int width, int height, const std::vector<cl::Event>& wait);

  std::shared_ptr<Context> m_context;
  FilterChain m_chain;
  std::vector<Step> m_steps;  ///< the switched-on steps
  std::string m_requested;
  ChainFusion m_fusion = ChainFusion::Auto;
  std::unique_ptr<FusedChain> m_fused;  ///< prepared when the chain may run fused
  bool m_useFused = false;
  bool m_measureFusion = false;  ///< auto: compare on the next frame
  bool m_provisional = false;    ///< setProvisional
  int m_width = 0, m_height = 0;
  cl::Buffer m_buffers[3];  ///< input, then the steps' outputs alternating between 1 and 2
  std::vector<std::string> m_notices, m_reported;
  std::optional<double> m_time;
  std::chrono::steady_clock::time_point m_started = std::chrono::steady_clock::now();
};

}  // namespace convolab
