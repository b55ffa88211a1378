// SPDX-License-Identifier: MIT
// Strategy: one way to convolve an RGB8 frame on an OpenCL device.
#pragma once

#include <CL/opencl.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/filter.hpp"
#include "convolab/strategy_id.hpp"

namespace convolab {

/// A kernel launch (or device-side copy) a strategy enqueued, named for per-stage timings.
struct NamedEvent {
  std::string name;
  cl::Event event;
};

/// Device buffers a strategy reads and writes: packed RGB8 rows (stride = width·3 bytes).
struct FrameBuffers {
  cl::Buffer input;
  cl::Buffer output;
  int width = 0;
  int height = 0;
};

/// Strategy interface. "Not applicable" is a return value (unsupportedReason); failure is an exception.
/// Lifecycle: unsupportedReason → prepare (once per filter structure / frame size) → enqueue (per frame).
class Strategy {
 public:
  virtual ~Strategy() = default;

  virtual std::string name() const = 0;

  /// Launch-shape variants worth measuring on a device (e.g. "16x8", "32x4"); the first is the default.
  /// `auto` tries each. Strategies without tunable shapes return one empty string.
  virtual std::vector<std::string> tuningVariants(const Context&, const FilterSet&) const { return {""}; }
  /// Selects one of tuningVariants() before prepare(); an unknown variant keeps the default.
  virtual void setTuningVariant(const std::string&) {}

  /// What runs for `filter`: strategies that return the same identity run the same kernels (e.g. separable
  /// and lowrank on a rank-1 filter), so `auto` times only the first of them.
  virtual std::string kernelIdentity(const Context&, const FilterSet&) const { return name(); }

  /// What actually runs: {name()}, or for a strategy that delegates (auto) what it delegates to, e.g.
  /// {tiled, b4x2-wg16x8, viaAuto} ("auto:tiled/b4x2-wg16x8").
  virtual StrategyId activeId() const { return StrategyId(name()); }

  /// Empty when this strategy can run `filter` on this device; else a short reason for people.
  virtual std::optional<std::string> unsupportedReason(const Context& ctx, const FilterSet& filter) const = 0;

  /// Builds kernels and allocates what frames of width×height need. Called again whenever the filter
  /// or the size changes; a strategy rebuilds only what the change requires (coefficients alone are
  /// usually just re-uploaded). Throws ClError/BuildError on OpenCL failure.
  virtual void prepare(Context& ctx, const FilterSet& filter, int width, int height) = 0;

  /// True when prepare() for `next` at the size prepared last builds no program: only weights, offsets or
  /// other arguments change (or builds happen in the background). A live caller may then prepare on its own
  /// thread between frames instead of on a spare engine. False (the default) when unsure.
  virtual bool preparesWithoutBuild(const Context&, const FilterSet& next) const {
    (void)next;
    return false;
  }

  /// True when the next enqueue would run something else than the last one did: background work has made a
  /// better kernel ready (auto's measured winner, a baked literal kernel) or is due to start between frames.
  /// A caller showing a still frame processes it again then, so the change reaches the screen.
  virtual bool changePending() const { return false; }

  /// Enqueues the convolution of frame.input into frame.output after `waitFor`; returns the events
  /// of what it enqueued, in order (the last one completes the output).
  virtual std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                          const std::vector<cl::Event>& waitFor) = 0;
};

/// A named way to make a strategy: one row of the registry (registry.hpp), or one of auto's candidates.
struct StrategyEntry {
  std::string_view name;         ///< "naive", "constant", ... (== kernels/<name>.cl, strategies/<name>.cpp)
  std::string_view description;  ///< one line for `convolab-cli strategies` and tooltips
  std::unique_ptr<Strategy> (*create)();
};

}  // namespace convolab
