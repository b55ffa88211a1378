// SPDX-License-Identifier: MIT
// Processing thread: newest frame in, filter snapshot applied by the live Engine, newest result out; the
// passes, their stamps and the worker's slots (the engine hand-over is in engine_hand_over.cpp).
#include "processing/processing_worker.hpp"

#include <QCoreApplication>
#include <thread>

#include "convolab/device.hpp"
#include "convolab/fault_injection.hpp"
#include "convolab/registry.hpp"

namespace convolab::gui {

namespace {
// A frame older than this counts as "the source is idle" (paused, or a still image between repeats).
constexpr auto kIdleAfter = std::chrono::milliseconds(120);
// Test hook (setTestFrameDelay): extra time every frame takes, standing for a slow device.
std::atomic<int> g_testFrameDelayMs{0};
}  // namespace

void ProcessingWorker::setTestFrameDelay(std::chrono::milliseconds delay) {
  g_testFrameDelayMs = static_cast<int>(delay.count());
}

ProcessingWorker::ProcessingWorker(std::shared_ptr<capture::LatestFrameSlot> slot,
                                   std::shared_ptr<FilterMailbox> filter,
                                   std::shared_ptr<capture::StagingStorage> staging,
                                   std::shared_ptr<output::OutputDoor> door)
    : m_slot(std::move(slot)),
      m_filter(std::move(filter)),
      m_device(staging),
      m_results(staging, std::move(door)),
      m_engines(m_device, m_slot, m_filter, this) {
  // Every program with a window (the app, its tests, the soak tool) stops auto's background work when its
  // QCoreApplication ends, before static destructors run: a PoCL compile still in flight then crashed in
  // LLVM's torn-down statics (stopAutoMeasurements).
  static const bool stopsAtExit = [] {
    qAddPostRoutine([] { stopAutoMeasurements(); });
    return true;
  }();
  (void)stopsAtExit;
  m_slot->setCounting(false);  // until the first frame is processed by a ready engine
  // On this thread, at once: a failure is said before the pass goes on, an adopted engine asks for a pass.
  connect(&m_engines, &EngineHandOver::notice, this, &ProcessingWorker::notice, Qt::DirectConnection);
  connect(&m_engines, &EngineHandOver::failed, this, &ProcessingWorker::reportFailure, Qt::DirectConnection);
  connect(
      &m_engines, &EngineHandOver::adopted, this, [this] { filterChanged(); }, Qt::DirectConnection);
  connect(
      &m_engines, &EngineHandOver::preparingChanged, this,
      [this](const QString& preparing) { emit stateChanged(preparing, m_stillIdle); }, Qt::DirectConnection);
}

ProcessingWorker::~ProcessingWorker() = default;

bool ProcessingWorker::repeatStills() const {
  if (m_automated) return true;     // --frames counts processed frames, also of a still image
  return m_results.wantsRepeats();  // a recording of a still needs a frame per tick
}

void ProcessingWorker::reportFailure(const QString& message) {
  if (message == m_lastFailure) return;  // once per distinct message, not once per frame
  m_lastFailure = message;
  emit failed(message);
}

void ProcessingWorker::setStillIdle(bool idle) {
  if (idle == m_stillIdle) return;
  m_stillIdle = idle;
  emit stateChanged(m_engines.preparing(), idle);
}

bool ProcessingWorker::openDevice(const QString& spec) {
  try {
    m_device.open(spec);
    m_engines.touch();
    m_lastFailure.clear();
    const auto& info = m_device.context()->device();
    emit engineReady(QString::fromStdString(info.name), QString::fromStdString(info.spec()),
                     m_engines.strategy());
    return true;
  } catch (const std::exception& e) {
    reportFailure(
        tr("Cannot use OpenCL device '%1': %2").arg(spec.isEmpty() ? tr("default") : spec, e.what()));
    return false;
  }
}

void ProcessingWorker::initialise(const QString& deviceSpec, const StrategyId& strategy) {
  m_engines.setStrategy(strategy.name.empty() ? StrategyId{std::string(kAutoStrategy)} : strategy);
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
    requireStrategyName(m_engines.strategy().name);
  } catch (const std::exception& e) {
    emit notice(QString::fromUtf8(e.what()) + tr("; using auto"));
    m_engines.setStrategy(StrategyId{std::string(kAutoStrategy)});
  }
  if (!openDevice(deviceSpec) && !deviceSpec.isEmpty()) {
    emit notice(tr("Falling back to the default OpenCL device"));
    openDevice(QString());
  }
  if (m_lastInput.image) process(m_lastInput, Pass::Repeat);
}

void ProcessingWorker::setChainFusion(ChainFusion fusion) {
  if (fusion == m_engines.chainFusion()) return;
  m_engines.setChainFusion(fusion);  // the live engine is no longer as asked: a new one is prepared behind it
  m_engines.touch();
  filterChanged();
}

void ProcessingWorker::setStrategy(const StrategyId& strategy) {
  try {
    requireStrategyName(strategy.name);  // validates before touching the engine
    m_engines.setStrategy(strategy);
    m_engines.touch();
    if (m_device.isOpen()) {
      const auto& info = m_device.context()->device();
      emit engineReady(QString::fromStdString(info.name), QString::fromStdString(info.spec()), strategy);
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
  m_device.releaseStaging();
  m_engines.shutdown();
  stopAutoMeasurements();  // the jobs use this device's queues
  m_device.close();
}

void ProcessingWorker::requestComputeKick() {
  if (m_device.claimKick())
    QMetaObject::invokeMethod(
        this, [this] { m_device.runKick(); }, Qt::QueuedConnection);
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

void ProcessingWorker::process(const capture::Frame& frame, Pass pass) {
  const auto snapshot = m_filter->current();
  const PassStamp stamp{frame.image, snapshot->revision, m_engines.state()};
  // A still image is delivered again and again: process it once per change, not 30 times a second. A change
  // of the engine's own (auto's measured winner, a baked literal kernel) is one: it shows on the still.
  const Engine* engine = m_engines.engine();
  if (stamp == m_lastPass && !repeatStills() && !(engine && engine->changePending())) {
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
  result->record = m_results.recordFor(frame, *snapshot);
  result->record.counted = pass == Pass::Delivered;
  if (pass == Pass::Repeat) {
    // Nothing new was captured: what this pass shows is the change that asked for it, so the latency of
    // a still or paused frame reads change → screen, not the frame's age.
    result->record.repeat = true;
    result->record.captured = m_changedAt;
  }
  const bool current = snapshot->bypass || filterWithEngine(frame, *snapshot, *result);
  // The stamp after the pass: an engine swapped in for this frame (automated runs) counts as seen.
  m_lastPass = {frame.image, snapshot->revision, m_engines.state()};
  if (current && !m_engines.waiting() && result->record.error.isEmpty()) m_slot->setCounting(true);
  result->record.processed = capture::Clock::now();
  m_results.publish(result);  // out through the door on this thread: no frame out waits on the GUI
  emit frameProcessed(result->record);
}

bool ProcessingWorker::filterWithEngine(const capture::Frame& frame, const FilterSnapshot& snapshot,
                                        ProcessedFrame& result) {
  FrameRecord& record = result.record;
  if (!m_device.isOpen()) {
    record.error = m_lastFailure.isEmpty() ? tr("No OpenCL device") : m_lastFailure;
    return false;
  }
  const int width = frame.image->width, height = frame.image->height;
  const bool current = m_engines.bringUpToDate(snapshot, width, height, m_automated);
  const PrepareJob& live = m_engines.live();
  if (!m_engines.engine() || live.width != width || live.height != height) {
    // No engine fits this size yet: show the input, marked, while the preparer works.
    record.filterRevision = 0;
    record.stale = true;
    record.unfiltered = true;
    if (!m_engines.waiting()) record.error = m_lastFailure.isEmpty() ? tr("No engine") : m_lastFailure;
    return current;
  }
  record.filterRevision = live.chain == snapshot.chain ? snapshot.revision : live.revision;
  record.stale = record.filterRevision != snapshot.revision;
  try {
    if (const int delay = g_testFrameDelayMs.load(); delay > 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(delay));
    auto out = m_results.acquire(width, height);
    record.timings = m_engines.engine()->process(frame.image->view(), out->mutableView());
    record.hasTimings = true;
    result.filtered = std::move(out);
    m_lastFailure.clear();
  } catch (const std::exception& e) {
    record.error = QString::fromUtf8(e.what());
    reportFailure(tr("Processing failed: %1").arg(record.error));
  }
  for (const auto& n : m_engines.engine()->takeNotices()) emit notice(QString::fromStdString(n));
  return current;
}

}  // namespace convolab::gui
