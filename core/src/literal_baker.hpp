// SPDX-License-Identifier: MIT
// Pause-then-bake for literal-coefficient kernels (codegen, sliding): while coefficients are being edited a
// generic kernel (dynamic.cl, weights as an argument) runs, and the literal program is built once edits
// pause.
#pragma once

#include <CL/opencl.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <memory>
#include "convolab/context.hpp"
#include "convolab/filter.hpp"
#include "convolab/strategy.hpp"

namespace convolab {

/// A literal-coefficient kernel once built, and how to launch it.
struct BakedKernel {
  std::uint64_t key = 0;  ///< the request's key
  cl::Kernel kernel;
  cl::NDRange local;
  std::function<cl::NDRange(int width, int height)> global;
  cl_float4 offset{}, border{};  ///< arguments for the filter it currently runs (set when activated)
};

/// One literal program as the strategy that generates it describes it.
struct BakeRequest {
  std::uint64_t key = 0;                       ///< hash of source + options
  std::string structureKey;                    ///< K and border: a change here never runs the old kernel
  cl_float4 offset{}, border{};                ///< arguments, not baked into the source
  std::function<BakedKernel(Context&)> build;  ///< builds the program (on a background thread after a pause)
};

/// The literal kernels of one strategy instance: the active one, an LRU of recent ones, the build in flight
/// and the generic kernel that runs meanwhile. Every program built costs driver memory that PoCL 3.1 never
/// returns, so typing coefficients must not build one program per keystroke.
class LiteralBaker {
 public:
  /// `eventName` names the launches (e.g. "convolve_sliding"); the last `maxKernels` built kernels are kept
  /// so that returning to an earlier filter switches at once.
  LiteralBaker(std::string eventName, std::size_t maxKernels);
  ~LiteralBaker();  ///< waits for a background build (it uses the context); never throws
  LiteralBaker(const LiteralBaker&) = delete;
  LiteralBaker& operator=(const LiteralBaker&) = delete;

  /// Readies `request` (the literal program for `filter`):
  /// - the program running now, or one built before: switches at once (offsets and border values are
  ///   arguments);
  /// - a coefficient edit (same structureKey as the running one): the generic kernel (the `dynamic` strategy:
  ///   K, border and weights as arguments, one program per device, so never a compile here) runs now, exact,
  ///   and the literal program is built in the background once edits have paused for the quiet period
  ///   (CONVOLAB_AUTO_QUIET_MS, 4 s: on PoCL a compile stalls the live frames);
  /// - otherwise (first filter, K or border changed): built now.
  /// The literal kernels held are a cache: each baker keeps its last `maxKernels`, and the process at most
  /// coreConfig().literalPrograms (CONVOLAB_LITERAL_PROGRAMS, 64) in all; a new one evicts the baker's least
  /// recently used one, never the running one. A new filter never falls back to the generic kernel for good.
  /// With `backgroundBuilds` (codegen's CONVOLAB_CODEGEN_ASYNC) a coefficient edit keeps the previous literal
  /// kernel running until the new one is built instead.
  /// `width`×`height`: the frames it will run on (0: not known yet), where a first launch in a child is made.
  void prepare(Context& ctx, const FilterSet& filter, BakeRequest request, int width, int height,
               bool backgroundBuilds = false);

  /// Enqueues one frame: collects a finished build, then runs the generic kernel while edits are in flight,
  /// else the active literal kernel with arguments (input, output, width, height, offset, border), as every
  /// literal kernel takes them; either event is named after the baker.
  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor);

  /// Preparing `next` builds nothing now: a kernel is running and `next` has the K and border of the last
  /// prepare (a coefficient edit runs the generic kernel until the bake). Strategy::preparesWithoutBuild.
  bool preparesWithoutBuild(const FilterSet& next) const {
    return (m_active.has_value() || m_genericActive) && next.size() == m_preparedSize &&
           next.border() == m_preparedBorder;
  }
  /// A bake has landed, or is due to start (edits have paused): the next enqueue changes what runs
  /// (Strategy::changePending).
  bool changePending() const;
  /// What a person should know about the kernel running now (StrategyId::note): "generic kernel until edits
  /// pause" while a coefficient edit waits for its bake; empty when the literal one runs.
  std::string note() const;
  /// What runs, as the strategy called `name` reports it: {name} with note() (Strategy::activeId).
  StrategyId activeId(std::string name) const {
    StrategyId id(std::move(name));
    id.note = note();  // the generic kernel standing in is said, never hidden
    return id;
  }

 private:
  void prepareGeneric(Context& ctx, const FilterSet& filter);
  void activate(const BakeRequest& r, const BakedKernel& b);
  void remember(BakedKernel b);
  void poll(Context& ctx, bool wait);

  std::string m_eventName;
  int m_frameWidth = 0, m_frameHeight = 0;  ///< the last frame's: a bake's first launch is made at it
  int m_preparedSize = 0;                   ///< K and border of the last prepare
  BorderMode m_preparedBorder = BorderMode::Reflect101;
  std::size_t m_maxKernels;
  std::optional<BakedKernel> m_active;
  std::string m_activeStructure;
  std::optional<BakeRequest> m_target;  ///< newest request whose kernel is not built yet
  std::unique_ptr<Strategy> m_generic;  ///< dynamic: one program per device, weights as arguments
  bool m_genericActive = false;         ///< enqueue runs m_generic until m_target's literals are built
  std::chrono::steady_clock::time_point m_lastEdit;
  std::future<BakedKernel> m_building;
  std::uint64_t m_buildingKey = 0;
  std::map<std::uint64_t, BakedKernel> m_cache;
  std::deque<std::uint64_t> m_order;
};

/// Literal programs built by every LiteralBaker of this process.
int literalProgramsBuilt();
/// Literal kernels every LiteralBaker of this process holds now (at most coreConfig().literalPrograms, give
/// or take each baker's running kernel and newest one).
int literalProgramsHeld();
/// Tests: starts the count of literal programs built again.
void resetLiteralProgramCountForTesting();
/// Tests: how long coefficient edits must pause before their literals are baked (-1, the default:
/// coreConfig().autoQuietMs, 4 s, the pause every background compile waits for).
void setLiteralBakeQuietPeriodForTesting(int milliseconds);
/// Tests: every background build sleeps this long first, so "still the old kernel" is observable.
void setLiteralBakeBuildDelayForTesting(int milliseconds);

}  // namespace convolab
