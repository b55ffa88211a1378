// SPDX-License-Identifier: MIT
// Pipeline: wiring between the capture thread, the processing thread and the GUI.
#include "processing/pipeline.hpp"

#include "processing/processing_worker.hpp"

namespace convolab::gui {

Pipeline::Pipeline(QObject* parent)
    : QObject(parent),
      m_slot(std::make_shared<capture::LatestFrameSlot>()),
      m_mailbox(std::make_shared<FilterMailbox>()),
      m_door(std::make_shared<output::OutputDoor>()),
      m_staging(std::make_shared<capture::StagingStorage>()) {
  qRegisterMetaType<FrameRecord>();
  qRegisterMetaType<capture::CaptureStatus>();
  qRegisterMetaType<StrategyId>();
  m_worker = new ProcessingWorker(m_slot, m_mailbox, m_staging, m_door);
  m_worker->moveToThread(&m_thread);
  connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
  connect(m_worker, &ProcessingWorker::frameProcessed, this,
          [this](const FrameRecord& record) { m_deliveredSequence = record.sequence; });
  connect(m_worker, &ProcessingWorker::frameProcessed, this, &Pipeline::frameProcessed);
  connect(m_worker, &ProcessingWorker::devicesListed, this, &Pipeline::devicesListed);
  connect(m_worker, &ProcessingWorker::engineReady, this, &Pipeline::engineReady);
  connect(m_worker, &ProcessingWorker::notice, this, &Pipeline::notice);
  connect(m_worker, &ProcessingWorker::failed, this, &Pipeline::processingFailed);
  connect(m_worker, &ProcessingWorker::stateChanged, this, &Pipeline::processingStateChanged);
  // Queued behind the frames processed before it: once this thread sees "idle", it has seen those frames.
  connect(m_worker, &ProcessingWorker::stateChanged, this,
          [this](const QString&, bool stillIdle) { m_stillIdle = stillIdle; });
  m_thread.setObjectName(QStringLiteral("processing"));
  m_thread.start();
  m_mailbox->publish(chain(), m_bypass);
}

Pipeline::~Pipeline() {
  if (!shutdown(2000)) m_thread.wait();
}

bool Pipeline::shutdown(int timeoutMs) {
  if (m_thread.isFinished()) return true;
  ++m_sourceGeneration;
  m_capture.reset();  // joins the capture thread: no more frames are announced
  stopRecording();
  if (!m_shuttingDown) {
    m_shuttingDown = true;
    QMetaObject::invokeMethod(m_worker, &ProcessingWorker::shutdown, Qt::QueuedConnection);
    m_thread.quit();
  }
  return m_thread.wait(QDeadlineTimer(timeoutMs));
}

void Pipeline::startEngine(const QString& deviceSpec, const StrategyId& strategy) {
  QMetaObject::invokeMethod(
      m_worker, [w = m_worker, deviceSpec, strategy] { w->initialise(deviceSpec, strategy); },
      Qt::QueuedConnection);
}

void Pipeline::openSource(std::unique_ptr<capture::FrameSource> source,
                          std::chrono::milliseconds retryInterval) {
  m_capture.reset();
  m_slot->clear();
  m_slot->resetCounters();
  if (source)
    source->setStaging(m_staging);  // frames are decoded straight into the processing device's pinned memory
  const std::uint64_t generation = ++m_sourceGeneration;
  ProcessingWorker* worker = m_worker;
  auto onFrame = [worker] {
    QMetaObject::invokeMethod(worker, &ProcessingWorker::processPending, Qt::QueuedConnection);
  };
  // Status callbacks come from the capture thread; hop to the GUI thread, dropping a replaced source's.
  auto onStatus = [this, generation](const capture::CaptureStatus& status) {
    QMetaObject::invokeMethod(
        this,
        [this, generation, status] {
          if (generation == m_sourceGeneration) emit captureStatusChanged(status);
        },
        Qt::QueuedConnection);
  };
  m_capture =
      std::make_unique<capture::CaptureThread>(std::move(source), m_slot, onFrame, onStatus, retryInterval);
  if (m_paused) m_capture->setPaused(true);
}

void Pipeline::closeSource() {
  ++m_sourceGeneration;
  m_capture.reset();
  m_slot->clear();
}

std::uint64_t Pipeline::setFilter(const FilterSet& filter) {
  m_filter = filter;
  if (m_chain) return filterRevision();  // the chain runs; the filter is kept for when it is switched off
  return publish();
}

std::uint64_t Pipeline::setChain(std::optional<FilterChain> chain) {
  m_chain = std::move(chain);
  return publish();
}

std::uint64_t Pipeline::publish() {
  const auto revision = m_mailbox->publish(chain(), m_bypass);
  QMetaObject::invokeMethod(
      m_worker, [w = m_worker, when = capture::Clock::now()] { w->filterChangedAt(when); },
      Qt::QueuedConnection);
  emit filterPublished(revision);
  return revision;
}

std::uint64_t Pipeline::setBypass(bool bypass) {
  m_bypass = bypass;
  return publish();
}

void Pipeline::setStrategy(const StrategyId& strategy) {
  setChainFusion(ChainFusion::Auto);  // a strategy chosen by hand runs a chain as it always has
  QMetaObject::invokeMethod(
      m_worker, [w = m_worker, strategy] { w->setStrategy(strategy); }, Qt::QueuedConnection);
  emit strategyRequested(strategy);
}

void Pipeline::setChainFusion(ChainFusion fusion) {
  if (fusion == m_fusion) return;
  m_fusion = fusion;
  QMetaObject::invokeMethod(
      m_worker, [w = m_worker, fusion] { w->setChainFusion(fusion); }, Qt::QueuedConnection);
}

void Pipeline::setDevice(const QString& spec) {
  QMetaObject::invokeMethod(
      m_worker, [w = m_worker, spec] { w->setDevice(spec); }, Qt::QueuedConnection);
}

void Pipeline::setAutomated(bool automated) {
  m_worker->setAutomated(automated);
}

bool Pipeline::stillIdle() const {
  return m_stillIdle;
}

void Pipeline::setPaused(bool paused) {
  m_paused = paused;
  if (m_capture) m_capture->setPaused(paused);
}

void Pipeline::step() {
  if (m_capture && m_paused) m_capture->step();
}

ProcessedFramePtr Pipeline::latestFrame() const {
  return m_worker->latest();
}

ProcessedFramePtr Pipeline::frameThatMayLeave(QString* why) const {
  ProcessedFramePtr frame = latestFrame();
  QString reason;
  if (!frame)
    reason = tr("no frame has been processed");
  else if (frame->record.bypassed)
    reason = tr("the filter is off (Bypass)");
  else if (!output::OutputDoor::mayLeave(outputFrameOf(*frame)) ||
           frame->record.filterRevision != filterRevision())
    reason = tr("no frame made with the current filter yet");
  if (why) *why = reason;
  if (!reason.isEmpty()) return nullptr;
  if (!m_door->flipped()) return frame;
  if (m_flippedFrom != frame) {  // Flip Output: the picture as the door hands it out, made once per frame
    auto leaving = std::make_shared<ProcessedFrame>(*frame);
    leaving->filtered = output::OutputDoor::flippedFrame(outputFrameOf(*frame)).image;
    m_flipped = std::move(leaving);
    m_flippedFrom = frame;
  }
  return m_flipped;
}

void Pipeline::requestComputeKick() {
  if (!m_shuttingDown) m_worker->requestComputeKick();
}

std::uint64_t Pipeline::computeKicks() const {
  return m_shuttingDown ? 0 : m_worker->computeKicks();
}

void Pipeline::startRecording(const std::filesystem::path& path, int width, int height, double fps) {
  stopRecording();
  m_recorder = std::make_shared<capture::VideoRecorder>(path, width, height, fps);
  m_door->add(m_recorder);
}

void Pipeline::stopRecording() {
  if (!m_recorder) return;
  m_door->remove(m_recorder);  // gets no frame after this
  m_recorder.reset();          // flushes and closes
}

std::shared_ptr<FrameRateCap> Pipeline::frameRateCap() const {
  return m_worker->frameRateCap();  // made with the worker, never replaced: safe to read from here
}

}  // namespace convolab::gui
