// SPDX-License-Identifier: MIT
// EnginePreparer: builds (and for auto, measures) an Engine on its own thread, so processing never waits.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/engine.hpp"
#include "convolab/filter_chain.hpp"
#include "convolab/strategy_id.hpp"

namespace convolab::gui {

/// What an engine should be ready for: a device context, a strategy, a chain (the editor's filter as a
/// one-step chain, or a custom OpenCL step; with the mailbox revision it came from) and a frame size.
struct PrepareJob {
  std::shared_ptr<Context> context;  ///< the device: the live engine's identity check
  /// Two queues on that device (Context::sibling): the engine is prepared on the one the live engine does not
  /// use, so builds and measurements never queue in front of live frames (PoCL compiles kernels on its
  /// queue).
  std::array<std::shared_ptr<Context>, 2> queues;
  StrategyId strategy{std::string(kAutoStrategy)};  ///< the strategy asked for (a registry name)
  ChainFusion fusion = ChainFusion::Auto;           ///< how a chain of several steps runs (Pipeline)
  FilterChain chain;
  std::uint64_t revision = 0;
  int width = 0;
  int height = 0;
  std::uint64_t id = 0;  ///< grows with every request; a result is adopted only if newer than the live one
  /// The live engine already runs this chain provisionally (step by step, new steps on `dynamic`): this job
  /// only brings auto's per-step strategies and the fused-or-not choice behind it, so a newer chain makes it
  /// pointless (supersedes).
  bool upgrade = false;
};

/// A finished job: the engine (null when preparing failed or was cancelled), its notices and the failure, if
/// any.
struct PrepareResult {
  PrepareJob job;
  std::unique_ptr<Engine> engine;
  std::vector<std::string> notices;
  std::string error;
  bool cancelled = false;  ///< superseded by a newer request for another strategy or device: not a failure
};

/// One background thread. request() replaces a job that has not started yet (newest wins). A job that has
/// started runs to its end when the newer one only changes the filter (its engine is still closer to what
/// the editor shows than the live one); when the newer one asks for another strategy or device, the running
/// job's engine could never be used, so it stops at its next cancellation point (between auto's
/// measurements, before the warm-up frame) and is delivered as cancelled. Callbacks run on the preparer's
/// thread.
class EnginePreparer {
 public:
  using ProgressCallback = std::function<void(const std::string& message)>;
  using DoneCallback = std::function<void(std::shared_ptr<PrepareResult> result)>;

  EnginePreparer(ProgressCallback onProgress, DoneCallback onDone);
  /// Stops a running preparation at its next cancellation point, then joins.
  ~EnginePreparer();
  EnginePreparer(const EnginePreparer&) = delete;
  EnginePreparer& operator=(const EnginePreparer&) = delete;

  void request(PrepareJob job);
  /// An engine that is no longer live: the next job on the same context reuses it (cheaper than a new one:
  /// its strategy only re-prepares what changed).
  void recycle(std::unique_ptr<Engine> engine);
  /// The live chain changed: a running upgrade job stops at its next cancellation point (cancelled).
  void cancelUpgrade();
  /// A job waits or runs.
  bool busy() const;

  /// The queue (context) the live engine uses: jobs prepare on the other one.
  void setLiveContext(const Context* context) { m_live = context; }

  /// Runs `job` on the calling thread on the job queue that is not `live` (reusing `engine` when it is on
  /// it).
  /// Cancellation points inside it throw when the calling thread's CancelCheck (convolab/progress.hpp) says
  /// so; the result then says `cancelled`.
  static std::shared_ptr<PrepareResult> run(const PrepareJob& job, std::unique_ptr<Engine> engine,
                                            const Context* live);

  /// `newer` makes `running` pointless: its engine would be for a strategy or device no longer asked for, or
  /// `running` is an upgrade of a chain that is no longer the newest.
  static bool supersedes(const PrepareJob& newer, const PrepareJob& running);

  /// Test hook: every preparation takes at least this long (simulates a slow measurement).
  static void setTestDelay(std::chrono::milliseconds delay);

 private:
  void loop();

  ProgressCallback m_onProgress;
  DoneCallback m_onDone;
  mutable std::mutex m_mutex;
  std::condition_variable m_wake;
  std::optional<PrepareJob> m_pending;
  PrepareJob m_current;  // the running job (valid while m_running)
  std::unique_ptr<Engine> m_spare;
  bool m_running = false;
  bool m_stop = false;
  bool m_cancelUpgrade = false;  // cancelUpgrade() since the running job started
  std::atomic<const Context*> m_live{nullptr};
  std::thread m_thread;  // last: starts after the members above
};

}  // namespace convolab::gui
