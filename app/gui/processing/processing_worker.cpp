// SPDX-License-Identifier: MIT
// Processing thread: newest frame in, filter snapshot applied by the live Engine, newest result out; engine
// changes prepared in the background and swapped in when ready.
#include "processing/processing_worker.hpp"

#include <QCoreApplication>
#include <QTimer>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <thread>

#include "convolab/context.hpp"
#include "convolab/device.hpp"
#include "convolab/error.hpp"
#include "convolab/fault_injection.hpp"
#include "convolab/pinned_pixel_storage.hpp"
#include "convolab/registry.hpp"
#include "convolab/strategy_id.hpp"
#include "log_categories.hpp"
#include "processing/custom_arguments.hpp"

namespace convolab::gui {

namespace {
// A frame older than this counts as "the source is idle" (paused, or a still image between repeats).
constexpr auto kIdleAfter = std::chrono::milliseconds(120);
// A preparation shorter than this (a coefficient upload) is not announced: no flicker while typing.
constexpr int kAnnounceAfterMs = 150;
// Test hook (setTestFrameDelay): extra time every frame takes, standing for a slow device.
std::atomic<int> g_testFrameDelayMs{0};
// Test hook (setTestTreatDeviceAsGpu): the compute kick runs on a CPU device too.
std::atomic<bool> g_testDeviceIsGpu{false};

// After an engine swap, at most this often: give the allocator's free pages back to the system.
constexpr auto kTrimInterval = std::chrono::seconds(10);

/// Frames, device buffers (PoCL keeps them in host memory) and compiler work come and go in blocks of
/// megabytes on several threads; glibc keeps what they freed in its arenas, so RSS crept up by the free
/// lists alone in the long soak (docs/RELIABILITY.md). malloc_trim returns those pages.
void returnFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

bool sameTarget(const PrepareJob& a, const PrepareJob& b) {
  return a.context == b.context && a.strategy == b.strategy && a.width == b.width && a.height == b.height &&
         a.fusion == b.fusion && a.chain == b.chain;
}
}  // namespace

void ProcessingWorker::setTestFrameDelay(std::chrono::milliseconds delay) {
  g_testFrameDelayMs = static_cast<int>(delay.count());
}

void ProcessingWorker::setTestTreatDeviceAsGpu(bool gpu) {
  g_testDeviceIsGpu = gpu;
}

ProcessingWorker::ProcessingWorker(std::shared_ptr<capture::LatestFrameSlot> slot,
                                   std::shared_ptr<FilterMailbox> filter,
                                   std::shared_ptr<capture::StagingStorage> staging,
                                   std::shared_ptr<output::OutputDoor> door)
    : m_slot(std::move(slot)),
      m_filter(std::move(filter)),
      m_door(std::move(door)),
      m_staging(std::move(staging)) {
  // Every program with a window (the app, its tests, the soak tool) stops auto's background work when its
  // QCoreApplication ends, before static destructors run: a PoCL compile still in flight then crashed in
  // LLVM's torn-down statics (stopAutoMeasurements).
  static const bool stopsAtExit = [] {
    qAddPostRoutine([] { stopAutoMeasurements(); });
    return true;
  }();
  (void)stopsAtExit;
  m_slot->setCounting(false);  // until the first frame is processed by a ready engine
  m_upgradeQuiet = makeUpgradeTimer();
  m_preparingGrace = new QTimer(this);
  m_preparingGrace->setSingleShot(true);
  m_preparingGrace->setInterval(kAnnounceAfterMs);
  connect(m_preparingGrace, &QTimer::timeout, this, [this] {
    if (m_waitingFor && m_preparing.isEmpty())
      setPreparing(m_requested.strategy.isAuto() ? tr("preparing auto…") : tr("building kernel…"));
  });
  m_preparer = std::make_unique<EnginePreparer>(
      [this](const std::string& message) {
        QMetaObject::invokeMethod(
            this,
            [this, text = QString::fromStdString(message)] {
              if (m_waitingFor) setPreparing(text);
            },
            Qt::QueuedConnection);
      },
      [this](std::shared_ptr<PrepareResult> result) {
        QMetaObject::invokeMethod(
            this, [this, result] { adopt(result); }, Qt::QueuedConnection);
      });
}

ProcessingWorker::~ProcessingWorker() {
  m_preparer.reset();  // joins first: its callbacks refer to this object
}

ProcessedFramePtr ProcessingWorker::latest() const {
  std::lock_guard lock(m_mutex);
  return m_latest;
}

bool ProcessingWorker::repeatStills() const {
  if (m_automated) return true;   // --frames counts processed frames, also of a still image
  return m_door->wantsRepeats();  // a recording of a still needs a frame per tick
}

void ProcessingWorker::reportFailure(const QString& message) {
  if (message == m_lastFailure) return;  // once per distinct message, not once per frame
  m_lastFailure = message;
  emit failed(message);
}

void ProcessingWorker::setPreparing(const QString& message) {
  if (message == m_preparing) return;
  m_preparing = message;
  emit stateChanged(m_preparing, m_stillIdle);
}

void ProcessingWorker::stopWaiting() {
  m_waitingFor = 0;
  m_preparingGrace->stop();
  setPreparing({});
}

void ProcessingWorker::setStillIdle(bool idle) {
  if (idle == m_stillIdle) return;
  m_stillIdle = idle;
  emit stateChanged(m_preparing, idle);
}

bool ProcessingWorker::openDevice(const QString& spec) {
  try {
    auto context = std::make_shared<Context>(spec.toStdString());
    m_queues = {context->sibling(), context->sibling()};
    m_kick.reset();  // made again on the new device's context at the next kick
    m_context = std::move(context);
    m_gpuDevice = m_context->device().isGpu;
    // Sources decode, and the engine downloads, straight into pinned memory of this device (DMA transfers,
    // no staging copy in the driver). CONVOLAB_PINNED_STAGING=0 turns it off (to compare).
    const char* pinned = std::getenv("CONVOLAB_PINNED_STAGING");
    if (!(pinned && std::string_view(pinned) == "0"))
      m_staging->set(std::make_shared<PinnedPixelStorage>(m_context));
    ++m_engineState;
    m_lastFailure.clear();
    const auto& info = m_context->device();
    emit engineReady(QString::fromStdString(info.name), QString::fromStdString(info.spec()), m_strategy);
    return true;
  } catch (const std::exception& e) {
    reportFailure(
        tr("Cannot use OpenCL device '%1': %2").arg(spec.isEmpty() ? tr("default") : spec, e.what()));
    return false;
  }
}

void ProcessingWorker::initialise(const QString& deviceSpec, const StrategyId& strategy) {
  m_strategy = strategy.name.empty() ? StrategyId{std::string(kAutoStrategy)} : strategy;
  QStringList labels, specs;
  try {
    for (const auto& d : listDevices()) {
      labels << QString::fromStdString(d.name + (d.isGpu ? " (GPU)" : " (CPU)") + " — " + d.platformName);
      specs << QString::fromStdString(d.spec());
    }
  } catch (const std::exception& e) {
    reportFailure(tr("Cannot list OpenCL devices: %1").arg(e.what()));
  }
  emit devicesListed(labels, specs);
  try {
    requireStrategyName(m_strategy.name);
  } catch (const std::exception& e) {
    emit notice(QString::fromUtf8(e.what()) + tr("; using auto"));
    m_strategy = StrategyId{std::string(kAutoStrategy)};
  }
  if (!openDevice(deviceSpec) && !deviceSpec.isEmpty()) {
    emit notice(tr("Falling back to the default OpenCL device"));
    openDevice(QString());
  }
  if (m_lastInput.image) process(m_lastInput, Pass::Repeat);
}

void ProcessingWorker::setStrategy(const StrategyId& strategy) {
  try {
    requireStrategyName(strategy.name);  // validates before touching the engine
    m_strategy = strategy;
    ++m_engineState;
    if (m_context) {
      const auto& info = m_context->device();
      emit engineReady(QString::fromStdString(info.name), QString::fromStdString(info.spec()), m_strategy);
    }
    m_lastFailure.clear();
  } catch (const std::exception& e) {
    reportFailure(QString::fromUtf8(e.what()));
  }
  filterChanged();
}

void ProcessingWorker::setDevice(const QString& spec) {
  openDevice(spec);
  filterChanged();
}

void ProcessingWorker::shutdown() {
  m_staging->set(nullptr);
  m_preparer.reset();
  m_engine.reset();
  stopAutoMeasurements();  // the jobs use this device's queues
  m_gpuDevice = false;
  m_kick.reset();
  m_context.reset();
  m_queues = {};
}

bool ProcessingWorker::kickWanted() const {
  return m_gpuDevice.load() || g_testDeviceIsGpu.load();
}

void ProcessingWorker::requestComputeKick() {
  if (!kickWanted() || m_kickPending.exchange(true)) return;
  QMetaObject::invokeMethod(this, &ProcessingWorker::runComputeKick, Qt::QueuedConnection);
}

void ProcessingWorker::runComputeKick() {
  m_kickPending = false;
  if (!m_context || !kickWanted()) return;
  if (!m_kick) {
    // Built once per device (a one-line kernel); a failure leaves it inert, said once.
    m_kick = std::make_unique<ComputeKick>(*m_context);
    if (!m_kick->ok())
      qCWarning(lcApp, "compute kick after OpenGL frames unavailable: %s", m_kick->error().c_str());
    else
      qCDebug(lcApp, "compute kick after each OpenGL frame on %s", m_context->device().name.c_str());
  }
  if (m_kick->kick()) ++m_kicks;
}

void ProcessingWorker::processPending() {
  schedulePass();
}

void ProcessingWorker::filterChanged() {
  filterChangedAt(capture::Clock::now());
}

void ProcessingWorker::filterChangedAt(capture::Clock::time_point when) {
  if (!m_filterDirty) m_changedAt = when;  // the oldest change a pass has not shown yet
  m_filterDirty = true;
  schedulePass();
}

void ProcessingWorker::schedulePass() {
  // Requests are cheap and coalesce into one queued pass: a frame takes seconds on a slow device, and one
  // frame per request would queue them faster than they are processed, with the preparer's results (and
  // their engines) waiting behind the backlog — strategy switches then lagged by minutes and memory grew.
  if (m_passQueued) return;
  m_passQueued = true;
  QMetaObject::invokeMethod(this, &ProcessingWorker::runPass, Qt::QueuedConnection);
}

void ProcessingWorker::runPass() {
  m_passQueued = false;
  const bool filterDirty = std::exchange(m_filterDirty, false);
  bool counted = false;
  if (auto frame = m_slot->take(&counted)) {
    if (!m_cap->admit(frame->captured)) return;  // over the frame-rate limit: dropped before upload
    process(*frame,
            counted ? Pass::Delivered : Pass::WarmUp);  // the newest frame; it also shows a changed filter
    return;
  }
  // The source is idle (paused, or a still between repeats): process the last frame again so the preview
  // follows the edit.
  if (filterDirty && m_lastInput.image && capture::Clock::now() - m_lastInput.captured >= kIdleAfter)
    process(m_lastInput, Pass::Repeat);
}

bool ProcessingWorker::liveIsCurrent(const FilterSnapshot& snapshot, int width, int height) const {
  return m_engine && runsAsAsked(m_live) && m_live.width == width && m_live.height == height &&
         (m_live.revision == snapshot.revision || m_live.chain == snapshot.chain);
}

PrepareJob ProcessingWorker::jobFor(const FilterSnapshot& snapshot, int width, int height) {
  PrepareJob job;
  job.context = m_context;
  job.queues = m_queues;
  job.strategy = m_strategy;
  job.fusion = m_fusion;
  job.chain = snapshot.chain;
  job.revision = snapshot.revision;
  job.width = width;
  job.height = height;
  return job;
}

void ProcessingWorker::requestPreparation(const FilterSnapshot& snapshot, int width, int height) {
  if (!m_preparer) return;  // shut down
  PrepareJob job = jobFor(snapshot, width, height);
  // Asked for already: waiting for it, or it failed (then it is not retried until something changes).
  if (m_requested.context && sameTarget(job, m_requested)) return;
  job.id = m_nextJobId++;
  m_requested = job;
  m_waitingFor = job.id;
  m_slot->setCounting(false);
  m_preparer->request(std::move(job));
  if (m_preparing.isEmpty()) m_preparingGrace->start();
}

void ProcessingWorker::prepareNow(const FilterSnapshot& snapshot, int width, int height) {
  PrepareJob job = jobFor(snapshot, width, height);
  job.id = m_nextJobId++;
  m_slot->setCounting(false);
  // Synchronous: keep using the live engine's own queue (its strategy only re-prepares what changed).
  const Context* other =
      m_engine && m_engine->sharedContext() == m_queues[0] ? m_queues[1].get() : m_queues[0].get();
  auto result = EnginePreparer::run(job, std::move(m_engine), other);
  for (const auto& n : result->notices) emit notice(QString::fromStdString(n));
  if (result->engine) {
    m_engine = std::move(result->engine);
    m_live = job;
    ++m_engineState;
  } else {
    reportFailure(tr("Processing failed: %1").arg(QString::fromStdString(result->error)));
  }
}

bool ProcessingWorker::takeFilterOnLive(const FilterSnapshot& snapshot, int width, int height) {
  // Only a filter edit for the engine that runs (same device, strategy and size) whose strategy builds
  // nothing for it: then it costs an upload of arguments here, and the frame about to be processed shows it.
  // A custom step's parameter move is one too (the same code and border: new kernel arguments).
  if (!m_engine || !runsAsAsked(m_live) || m_live.width != width || m_live.height != height) return false;
  const std::optional<FilterSet> single = snapshot.chain.singleFilter();
  // A chain: provisional here (step by step, new steps under auto on dynamic), prepared fully behind it.
  const bool cheap = single ? m_engine->preparesWithoutBuild(*single, width, height)
                            : onlyCustomArgumentsDiffer(m_live.chain, snapshot.chain) ||
                                  m_engine->chainPreparesWithoutBuild(snapshot.chain, width, height);
  if (!cheap) return false;
  try {
    if (!single) m_engine->setChainProvisional(true);
    m_engine->setChain(snapshot.chain);
    m_engine->prepare(width, height);
  } catch (const std::exception&) {
    return false;  // the preparer tries, with its fallbacks and its message
  }
  for (const auto& n : m_engine->takeNotices()) emit notice(QString::fromStdString(n));
  m_live.chain = snapshot.chain;
  m_live.revision = snapshot.revision;
  m_live.id = m_nextJobId++;  // a preparation asked for before this edit is older: never adopted
  m_requested = m_live;
  if (m_waitingFor) stopWaiting();
  ++m_engineState;
  if (!single) scheduleUpgrade();
  return true;
}

void ProcessingWorker::adopt(std::shared_ptr<PrepareResult> result) {
  if (!m_preparer) return;  // shut down
  for (const auto& n : result->notices) emit notice(QString::fromStdString(n));
  bool adopted = false;
  if (result->engine) {
    // Newer than the live engine and still for the device and strategy asked for: swap it in. An older
    // filter's engine is still adopted (it is closer to what the editor shows than the live one).
    if (runsAsAsked(result->job) && result->job.id > m_live.id) {
      if (m_engine) m_preparer->recycle(std::move(m_engine));
      m_engine = std::move(result->engine);
      m_preparer->setLiveContext(&m_engine->context());
      m_live = result->job;
      ++m_engineState;
      adopted = true;
    } else {
      m_preparer->recycle(std::move(result->engine));
    }
  } else if (!result->cancelled) {
    reportFailure(tr("Cannot prepare strategy '%1': %2")
                      .arg(QString::fromStdString(result->job.strategy.toString()),
                           QString::fromStdString(result->error)));
  }
  if (result->job.id == m_waitingFor) stopWaiting();
  if (adopted) {
    filterChanged();  // a still or paused frame shows the result now, not at the next change
    const auto now = std::chrono::steady_clock::now();
    if (now - m_lastTrim >= kTrimInterval) {
      m_lastTrim = now;
      returnFreedMemory();
    }
  }
}

void ProcessingWorker::process(const capture::Frame& frame, Pass pass) {
  const auto snapshot = m_filter->current();
  const PassStamp stamp{frame.image, snapshot->revision, m_engineState};
  // A still image is delivered again and again: process it once per change, not 30 times a second. A change
  // of the engine's own (auto's measured winner, a baked literal kernel) is one: it shows on the still.
  if (stamp == m_lastPass && !repeatStills() && !(m_engine && m_engine->changePending())) {
    setStillIdle(true);
    return;
  }
  setStillIdle(false);  // this frame is processed: "idle" again only at the next unchanged delivery
  // The preview's stall mark test: a pass stuck as in a build that holds the driver.
  if (faultInjected("stall", "processing")) std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  m_lastInput = frame;
  auto result = std::make_shared<ProcessedFrame>();
  result->original = frame.image;
  result->filtered = frame.image;  // bypass, or a failed frame: show the input unchanged
  result->record = recordFor(frame, *snapshot);
  result->record.counted = pass == Pass::Delivered;
  if (pass == Pass::Repeat) {
    // Nothing new was captured: what this pass shows is the change that asked for it, so the latency of
    // a still or paused frame reads change → screen, not the frame's age.
    result->record.repeat = true;
    result->record.captured = m_changedAt;
  }
  const bool current = snapshot->bypass || filterWithEngine(frame, *snapshot, *result);
  // The stamp after the pass: an engine swapped in for this frame (automated runs) counts as seen.
  m_lastPass = {frame.image, snapshot->revision, m_engineState};
  if (current && !m_waitingFor && result->record.error.isEmpty()) m_slot->setCounting(true);
  result->record.processed = capture::Clock::now();
  publish(std::move(result));
}

FrameRecord ProcessingWorker::recordFor(const capture::Frame& frame, const FilterSnapshot& snapshot) {
  FrameRecord record;
  record.sequence = ++m_sequence;
  record.sourceIndex = frame.index;
  record.sourceTimeMs = frame.timestampMs;
  record.filterRevision = snapshot.revision;
  record.bypassed = snapshot.bypass;
  record.captured = frame.captured;
  record.width = frame.image->width;
  record.height = frame.image->height;
  record.pinnedInput = frame.image->storage() != nullptr;
  return record;
}

bool ProcessingWorker::bringEngineUpToDate(const FilterSnapshot& snapshot, int width, int height) {
  if (!liveIsCurrent(snapshot, width, height)) {
    if (m_automated)
      prepareNow(snapshot, width, height);
    else if (!takeFilterOnLive(snapshot, width, height))
      requestPreparation(snapshot, width, height);
  }
  const bool current = liveIsCurrent(snapshot, width, height);
  if (current) m_live.revision = snapshot.revision;  // same filter, published again
  return current;
}

bool ProcessingWorker::filterWithEngine(const capture::Frame& frame, const FilterSnapshot& snapshot,
                                        ProcessedFrame& result) {
  FrameRecord& record = result.record;
  if (!m_context) {
    record.error = m_lastFailure.isEmpty() ? tr("No OpenCL device") : m_lastFailure;
    return false;
  }
  const int width = frame.image->width, height = frame.image->height;
  const bool current = bringEngineUpToDate(snapshot, width, height);
  if (!m_engine || m_live.width != width || m_live.height != height) {
    // No engine fits this size yet: show the input, marked, while the preparer works.
    record.filterRevision = 0;
    record.stale = true;
    record.unfiltered = true;
    if (!m_waitingFor) record.error = m_lastFailure.isEmpty() ? tr("No engine") : m_lastFailure;
    return current;
  }
  record.filterRevision = m_live.chain == snapshot.chain ? snapshot.revision : m_live.revision;
  record.stale = record.filterRevision != snapshot.revision;
  try {
    if (const int delay = g_testFrameDelayMs.load(); delay > 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(delay));
    auto out = m_outputs.acquire(width, height);
    record.timings = m_engine->process(frame.image->view(), out->mutableView());
    record.hasTimings = true;
    result.filtered = std::move(out);
    m_lastFailure.clear();
  } catch (const std::exception& e) {
    record.error = QString::fromUtf8(e.what());
    reportFailure(tr("Processing failed: %1").arg(record.error));
  }
  for (const auto& n : m_engine->takeNotices()) emit notice(QString::fromStdString(n));
  return current;
}

void ProcessingWorker::publish(ProcessedFramePtr result) {
  {
    std::lock_guard lock(m_mutex);
    m_latest = result;
  }
  m_door->push(outputFrameOf(*result));  // on this thread: no frame out waits on the GUI
  emit frameProcessed(result->record);
}

}  // namespace convolab::gui
