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
#include "convolab/filter.hpp"

namespace convolab::gui {

/// What an engine should be ready for: a device context, a strategy, a filter (with the mailbox revision it
/// came from) and a frame size.
struct PrepareJob {
  std::shared_ptr<Context> context;  ///< the device: the live engine's identity check
  /// Two queues on that device (Context::sibling): the engine is prepared on the one the live engine does not
  /// use, so builds and measurements never queue in front of live frames (PoCL compiles kernels on its
  /// queue).
  std::array<std::shared_ptr<Context>, 2> queues;
  std::string strategy;
  FilterSet filter;
  std::uint64_t revision = 0;
  int width = 0;
  int height = 0;
  std::uint64_t id = 0;  ///< grows with every request; a result is adopted only if newer than the live one
};

/// A finished job: the engine (null when preparing failed), its notices and the failure, if any.
struct PrepareResult {
  PrepareJob job;
  std::unique_ptr<Engine> engine;
  std::vector<std::string> notices;
  std::string error;
};

/// One background thread. request() replaces a job that has not started yet (newest wins); a job that has
/// started runs to its end (auto's measurements cannot be interrupted), and its result is still delivered:
/// it is newer than what is live. Callbacks run on the preparer's thread.
class EnginePreparer {
 public:
  using ProgressCallback = std::function<void(const std::string& message)>;
  using DoneCallback = std::function<void(std::shared_ptr<PrepareResult> result)>;

  EnginePreparer(ProgressCallback onProgress, DoneCallback onDone);
  /// Waits for a running preparation to end (it cannot be interrupted), then joins.
  ~EnginePreparer();
  EnginePreparer(const EnginePreparer&) = delete;
  EnginePreparer& operator=(const EnginePreparer&) = delete;

  void request(PrepareJob job);
  /// An engine that is no longer live: the next job on the same context reuses it (cheaper than a new one:
  /// its strategy only re-prepares what changed).
  void recycle(std::unique_ptr<Engine> engine);
  /// A job waits or runs.
  bool busy() const;

  /// The queue (context) the live engine uses: jobs prepare on the other one.
  void setLiveContext(const Context* context) { m_live = context; }

  /// Runs `job` on the calling thread on the job queue that is not `live` (reusing `engine` when it is on
  /// it).
  static std::shared_ptr<PrepareResult> run(const PrepareJob& job, std::unique_ptr<Engine> engine,
                                            const Context* live);

  /// Test hook: every preparation takes at least this long (simulates a slow measurement).
  static void setTestDelay(std::chrono::milliseconds delay);

 private:
  void loop();

  ProgressCallback m_onProgress;
  DoneCallback m_onDone;
  mutable std::mutex m_mutex;
  std::condition_variable m_wake;
  std::optional<PrepareJob> m_pending;
  std::unique_ptr<Engine> m_spare;
  bool m_running = false;
  bool m_stop = false;
  std::atomic<const Context*> m_live{nullptr};
  std::thread m_thread;  // last: starts after the members above
};

}  // namespace convolab::gui
