// SPDX-License-Identifier: MIT
// The preparer thread: newest job wins, engines recycled, auto's progress forwarded as "measuring 3/10…".
#include "processing/engine_preparer.hpp"

#include "convolab/beside_live_frames.hpp"

#include "convolab/progress.hpp"

namespace convolab::gui {

namespace {
std::atomic<int> g_testDelayMs{0};
}  // namespace

void EnginePreparer::setTestDelay(std::chrono::milliseconds delay) {
  g_testDelayMs = static_cast<int>(delay.count());
}

EnginePreparer::EnginePreparer(ProgressCallback onProgress, DoneCallback onDone)
    : m_onProgress(std::move(onProgress)), m_onDone(std::move(onDone)), m_thread([this] { loop(); }) {}

EnginePreparer::~EnginePreparer() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
    m_pending.reset();
  }
  m_wake.notify_all();
  if (m_thread.joinable()) m_thread.join();
}

void EnginePreparer::request(PrepareJob job) {
  {
    std::lock_guard lock(m_mutex);
    m_pending = std::move(job);
  }
  m_wake.notify_all();
}

void EnginePreparer::recycle(std::unique_ptr<Engine> engine) {
  {
    std::lock_guard lock(m_mutex);
    std::swap(m_spare, engine);
  }
  // The former spare (if any) is released here, outside the lock.
}

void EnginePreparer::cancelUpgrade() {
  std::lock_guard lock(m_mutex);
  m_cancelUpgrade = true;
}

bool EnginePreparer::busy() const {
  std::lock_guard lock(m_mutex);
  return m_running || m_pending.has_value();
}

bool EnginePreparer::supersedes(const PrepareJob& newer, const PrepareJob& running) {
  return newer.context != running.context || newer.strategy != running.strategy ||
         newer.fusion != running.fusion || (running.upgrade && !(newer.chain == running.chain));
}

std::shared_ptr<PrepareResult> EnginePreparer::run(const PrepareJob& job, std::unique_ptr<Engine> engine,
                                                   const Context* live) {
  auto result = std::make_shared<PrepareResult>();
  result->job = job;
  // New literal kernels make their first launch (a freeze of every queue on PoCL) in convolab-measure.
  const BesideLiveFrames besideTheLivePreview;
  try {
    // The test delay stands for a long measurement: it has cancellation points like one.
    const auto delayEnd = std::chrono::steady_clock::now() + std::chrono::milliseconds(g_testDelayMs.load());
    while (std::chrono::steady_clock::now() < delayEnd) {
      throwIfCancelled();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::shared_ptr<Context> queue =
        job.queues[0] && job.queues[0].get() != live ? job.queues[0] : job.queues[1];
    if (!queue) queue = job.context;
    if (!engine || engine->sharedContext() != queue)
      engine = std::make_unique<Engine>(queue, job.strategy.name);
    engine->setStrategy(job.strategy.name);
    engine->setChainProvisional(false);  // fusion is chosen (and measured) here, off the live path
    engine->setChainFusion(job.fusion);
    engine->setChain(job.chain);  // a one-filter chain runs exactly as setFilter(that filter)
    const std::size_t programsBefore = queue->programsCreated();
    engine->prepare(job.width, job.height);
    throwIfCancelled();
    // One frame here, on this thread and queue: PoCL compiles each kernel's work-group function at its first
    // launch (seconds), which must not happen on the live engine's first frame. Only when this preparation
    // created a program: one taken from the pool has run before, and a coefficient edit would otherwise
    // cost a whole extra frame (a second of CPU at 1080p on PoCL) per keystroke.
    // (Skipped for huge frames: two more full-size images would cost more than the stall they avoid.)
    // A chain's frame is always run: auto's fused-or-step-by-step comparison happens on its first frame.
    if ((queue->programsCreated() != programsBefore || !job.chain.singleFilter()) &&
        static_cast<std::size_t>(job.width) * static_cast<std::size_t>(job.height) * kBytesPerPixel <=
            std::size_t{64} << 20) {
      Image in(job.width, job.height), out(job.width, job.height);
      engine->process(in.view(), out.mutableView());
    }
    result->notices = engine->takeNotices();
    result->engine = std::move(engine);
  } catch (const Cancelled&) {
    result->cancelled = true;
    if (engine) result->notices = engine->takeNotices();
  } catch (const std::exception& e) {
    result->error = e.what();
    if (engine) result->notices = engine->takeNotices();
  }
  return result;
}

void EnginePreparer::loop() {
  setThreadProgressCallback([this](const std::string& what, int done, int total) {
    if (m_onProgress) m_onProgress(what + " " + std::to_string(done) + "/" + std::to_string(total) + "…");
  });
  setThreadCancelCheck([this] {
    std::lock_guard lock(m_mutex);
    return m_stop || (m_pending && supersedes(*m_pending, m_current)) ||
           (m_cancelUpgrade && m_current.upgrade);
  });
  for (;;) {
    PrepareJob job;
    std::unique_ptr<Engine> engine;
    {
      std::unique_lock lock(m_mutex);
      m_wake.wait(lock, [&] { return m_stop || m_pending.has_value(); });
      if (m_stop) return;
      job = std::move(*m_pending);
      m_pending.reset();
      engine = std::move(m_spare);
      m_current = job;
      m_running = true;
      m_cancelUpgrade = false;
    }
    auto result = run(job, std::move(engine), m_live.load());
    {
      std::lock_guard lock(m_mutex);
      m_running = false;
      if (m_stop) return;
    }
    if (m_onDone) m_onDone(std::move(result));
  }
}

}  // namespace convolab::gui
