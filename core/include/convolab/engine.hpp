// SPDX-License-Identifier: MIT
// Engine: owns the context, the strategy and the filter; uploads a frame, convolves, downloads, times.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/filter.hpp"
#include "convolab/filter_chain.hpp"
#include "convolab/image.hpp"
#include "convolab/pinned_buffer.hpp"
#include "convolab/strategy.hpp"

namespace convolab {

struct StageTiming {
  std::string name;  ///< "upload", a kernel name, "download"
  double ms = 0;     ///< from OpenCL profiling events (device time)
};

struct FrameTimings {
  std::vector<StageTiming>
      stages;  ///< upload, each kernel in order ("step N: <kernel>" in a chain), download
  double uploadMs = 0;
  double kernelMs = 0;  ///< sum of kernel stages
  double downloadMs = 0;
  double hostMs = 0;    ///< wall time of process() on the host
  StrategyId strategy;  ///< what ran (Engine::activeStrategyId)
};

class ChainRunner;

/// How a chain of several steps runs: `Auto` measures the fused launch against the steps one after another
/// when the requested strategy is auto (and auto may measure: CONVOLAB_AUTO_MEASURE is not `off`) and keeps
/// the faster, else runs step by step; `Fused` runs it fused wherever FusedChain accepts the chain.
enum class ChainFusion { Auto, StepByStep, Fused };

class Engine {
 public:
  /// Uses `context` (shared so a GUI can keep it across engine rebuilds).
  explicit Engine(std::shared_ptr<Context> context, std::string strategy = std::string(kAutoStrategy));
  ~Engine();
  Engine(Engine&&) noexcept;
  Engine& operator=(Engine&&) noexcept;

  /// Sets the filter for the next frame. Cheap if only coefficients changed.
  void setFilter(const FilterSet& filter);
  const FilterSet& filter() const { return m_filter; }
  /// Sets a chain for the next frame (docs/ARCHITECTURE.md, Chains). A chain whose one switched-on step is a
  /// filter runs exactly as setFilter(that filter); any other runs step by step on the device, one strategy
  /// per filter step (the requested one; auto chooses per step) and a magnitude kernel per magnitude step.
  /// setFilter() replaces a chain.
  void setChain(const FilterChain& chain);
  /// The chain set last, or the filter as a one-step chain.
  FilterChain chain() const;
  /// Takes effect on the next frame of a chain (docs/ARCHITECTURE.md, Chains).
  void setChainFusion(ChainFusion fusion);
  /// The app's live engine (docs/ARCHITECTURE.md, Chains): a chain runs step by step without building or
  /// measuring fusion, and under `auto` a new step runs `dynamic` at once; off (the default) for every other
  /// engine. Kept across setChain.
  void setChainProvisional(bool provisional);
  /// True when setChainProvisional(true), setChain(chain) and prepare(width, height) would build no program
  /// (ChainRunner::preparesWithoutBuild; from one filter: every step a filter under `auto`). False for a
  /// chain of one filter (preparesWithoutBuild answers for it).
  bool chainPreparesWithoutBuild(const FilterChain& chain, int width, int height) const;
  /// What each switched-on step of a chain ran ("auto:dynamic", "tiled", "magnitude"); empty without a chain.
  std::vector<std::string> chainStepStrategies() const;
  /// The `time` a custom OpenCL step sees, in seconds (stills: 0; a video: the frame's time); nullopt (the
  /// default): seconds since the chain was first set. Kept across setChain.
  void setFrameTime(std::optional<double> seconds);
  /// The warnings of the custom steps' last builds from source, with their step numbers (1-based among the
  /// switched-on steps); empty without custom steps.
  std::vector<std::pair<int, KernelDiagnostic>> customWarnings() const;

  /// Chooses the strategy by name (see registry); takes effect on the next frame. Throws Error(Usage)
  /// for an unknown name.
  void setStrategy(const std::string& name);
  const std::string& requestedStrategy() const { return m_requested; }
  /// The strategy that actually ran the last frame (differs from requested after a fallback; for
  /// auto it is the winner, viaAuto).
  StrategyId activeStrategyId() const;
  /// activeStrategyId() as text: "naive", "auto:tiled/b4x2-wg16x8".
  std::string activeStrategy() const { return activeStrategyId().toString(); }

  /// Convolves `in` into `out` (same size). Falls back to another strategy if the chosen one cannot
  /// run or fails, and records a notice. Throws only when no strategy can run.
  FrameTimings process(const ImageView& in, const MutableImageView& out);
  /// Does now what the first process() of a width×height frame would do first (builds; for auto, the
  /// measurements), with the same fallbacks, so a caller can prepare on another thread and swap engines.
  void prepare(int width, int height);

  /// True when the next frame of width×height with `filter` needs no program build, only new arguments
  /// (Strategy::preparesWithoutBuild of the strategy running now): the app's worker then applies such an edit
  /// on its own thread, between frames.
  bool preparesWithoutBuild(const FilterSet& filter, int width, int height) const;
  /// The running strategy would run something else on the next frame (Strategy::changePending: auto's
  /// winner is ready, a literal kernel is baked): a still frame is worth processing again.
  bool changePending() const { return m_strategy && m_strategy->changePending(); }

  /// Pinned host memory for a width×height frame. Filling stagingInput() and processing into
  /// stagingOutput() makes uploads and downloads DMA transfers without a driver-side staging copy
  /// (the fastest single-frame path). Views stay valid until the size changes.
  MutableImageView stagingInput(int width, int height);
  MutableImageView stagingOutput(int width, int height);

  /// Frames larger than this many bytes (width·height·3) are processed in full-width tiles with a halo
  /// of the filter's radius, so every strategy runs on frames larger than the device allows in one
  /// buffer; results are identical to an untiled run. 0 (the default): $CONVOLAB_TILE_BYTES, else
  /// min(the device's max allocation / 6, kDefaultTileBytes). Tests set a small value.
  void setTileBytes(std::size_t bytes) { m_tileBytes = bytes; }
  std::size_t tileBytes() const;
  static constexpr std::size_t kDefaultTileBytes = std::size_t{256} << 20;
  /// Hard bound whatever is configured: the kernels index frame bytes with 32-bit ints.
  static constexpr std::size_t kMaxTileBytes = (std::size_t{1} << 31) - 1;
  /// Tiles processed so far (0 while frames fit at once); for tests and diagnostics.
  long long tilesProcessed() const { return m_tilesProcessed; }

  /// Messages about fallbacks since the last call (e.g. "image: device has no image support; using
  /// constant"). Each distinct message is reported once.
  std::vector<std::string> takeNotices();

  Context& context() { return *m_context; }
  std::shared_ptr<Context> sharedContext() const { return m_context; }

 private:
  void ensurePrepared(int width, int height);
  bool tryActivate(const std::string& name, int width, int height);
  std::optional<std::string> prepareCatching(Strategy& strategy, int width, int height);
  void notice(const std::string& message);
  FrameTimings processRegion(const ImageView& in, const MutableImageView& out, int firstRow);
  FrameTimings processInTiles(const ImageView& in, const MutableImageView& out, int window);
  bool retireActiveStrategy(const std::string& what, int attempt);

  std::shared_ptr<Context> m_context;
  std::string m_requested;
  FilterSet m_filter;
  std::unique_ptr<Strategy> m_strategy;
  std::string m_activeName;
  bool m_dirty = true;
  int m_width = 0, m_height = 0;
  cl::Buffer m_input, m_output;
  PinnedBuffer m_pinnedIn, m_pinnedOut;
  std::vector<std::string> m_notices;
  std::vector<std::string> m_reported;
  std::size_t m_tileBytes = 0;
  long long m_tilesProcessed = 0;
  std::vector<std::uint8_t> m_tileHost;  ///< a wrap-mode tile's window assembled on the host
  std::vector<std::string> m_failed;     ///< strategies that failed while running; not retried this session
  ChainFusion m_fusion = ChainFusion::Auto;
  bool m_chainProvisional = false;
  std::optional<double> m_frameTime;
  std::unique_ptr<ChainRunner>
      m_chain;  ///< set while a chain of more than one filter runs (chain_runner.hpp)
};

}  // namespace convolab
