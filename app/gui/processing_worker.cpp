// Processing thread: newest frame in, filter snapshot applied, Engine::process, newest result out.
#include "processing_worker.hpp"

#include <cstring>

#include "convolab/context.hpp"
#include "convolab/device.hpp"
#include "convolab/error.hpp"
#include "convolab/registry.hpp"

namespace convolab::gui {

namespace {
// A frame older than this counts as "the source is idle" (paused, or a still image between repeats).
constexpr auto kIdleAfter = std::chrono::milliseconds(120);
}  // namespace

ProcessingWorker::ProcessingWorker(std::shared_ptr<capture::LatestFrameSlot> slot,
                                   std::shared_ptr<FilterMailbox> filter)
    : m_slot(std::move(slot)), m_filter(std::move(filter)) {}

ProcessingWorker::~ProcessingWorker() = default;

ProcessedFramePtr ProcessingWorker::latest() const {
  std::lock_guard lock(m_mutex);
  return m_latest;
}

void ProcessingWorker::setRecorder(std::shared_ptr<capture::VideoRecorder> recorder) {
  std::lock_guard lock(m_mutex);
  m_recorder = std::move(recorder);
}

void ProcessingWorker::reportFailure(const QString& message) {
  if (message == m_lastFailure) return;  // once per distinct message, not once per frame
  m_lastFailure = message;
  emit failed(message);
}

bool ProcessingWorker::openDevice(const QString& spec) {
  try {
    auto context = std::make_shared<Context>(spec.toStdString());
    auto engine = std::make_unique<Engine>(context, m_strategy.toStdString());
    engine->setFilter(m_filter->current()->filter);
    m_engine = std::move(engine);
    m_appliedRevision = ~0ull;
    m_lastFailure.clear();
    const auto& info = m_engine->context().device();
    emit engineReady(QString::fromStdString(info.name), QString::fromStdString(info.spec()), m_strategy);
    return true;
  } catch (const std::exception& e) {
    reportFailure(
        tr("Cannot use OpenCL device '%1': %2").arg(spec.isEmpty() ? tr("default") : spec, e.what()));
    return false;
  }
}

void ProcessingWorker::initialise(const QString& deviceSpec, const QString& strategy) {
  m_strategy = strategy.isEmpty() ? QStringLiteral("auto") : strategy;
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
    requireStrategyName(m_strategy.toStdString());
  } catch (const std::exception& e) {
    emit notice(QString::fromUtf8(e.what()) + tr("; using auto"));
    m_strategy = QStringLiteral("auto");
  }
  if (!openDevice(deviceSpec) && !deviceSpec.isEmpty()) {
    emit notice(tr("Falling back to the default OpenCL device"));
    openDevice(QString());
  }
  if (m_lastInput.image) process(m_lastInput);
}

void ProcessingWorker::setStrategy(const QString& name) {
  try {
    requireStrategyName(name.toStdString());  // validates before touching the engine
    m_strategy = name;
    if (m_engine) {
      m_engine->setStrategy(name.toStdString());
      const auto& info = m_engine->context().device();
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
  setRecorder(nullptr);
  m_engine.reset();
}

void ProcessingWorker::processPending() {
  if (auto frame = m_slot->take()) process(*frame);
}

void ProcessingWorker::filterChanged() {
  if (!m_lastInput.image) return;
  if (auto pending = m_slot->take()) {
    process(*pending);  // a fresh frame is waiting anyway: it shows the edit
    return;
  }
  if (capture::Clock::now() - m_lastInput.captured >= kIdleAfter) process(m_lastInput);
}

void ProcessingWorker::process(const capture::Frame& frame) {
  m_lastInput = frame;
  const auto snapshot = m_filter->current();
  FrameRecord record;
  record.sequence = ++m_sequence;
  record.sourceIndex = frame.index;
  record.filterRevision = snapshot->revision;
  record.bypassed = snapshot->bypass;
  record.captured = frame.captured;
  record.width = frame.image->width;
  record.height = frame.image->height;

  auto result = std::make_shared<ProcessedFrame>();
  result->original = frame.image;
  result->filtered = frame.image;  // bypass, or a failed frame: show the input unchanged
  if (!snapshot->bypass) {
    if (!m_engine) {
      record.error = m_lastFailure.isEmpty() ? tr("No OpenCL device") : m_lastFailure;
    } else {
      try {
        if (snapshot->revision != m_appliedRevision) {
          m_engine->setFilter(snapshot->filter);
          m_appliedRevision = snapshot->revision;
        }
        auto out = m_outputs.acquire(frame.image->width, frame.image->height);
        record.timings = m_engine->process(frame.image->view(), out->mutableView());
        record.hasTimings = true;
        result->filtered = std::move(out);
        m_lastFailure.clear();
      } catch (const std::exception& e) {
        record.error = QString::fromUtf8(e.what());
        reportFailure(tr("Processing failed: %1").arg(record.error));
      }
      for (const auto& n : m_engine->takeNotices()) emit notice(QString::fromStdString(n));
    }
  }
  record.processed = capture::Clock::now();
  result->record = record;
  std::shared_ptr<capture::VideoRecorder> recorder;
  {
    std::lock_guard lock(m_mutex);
    m_latest = result;
    recorder = m_recorder;
  }
  if (recorder) recorder->push(result->filtered);
  emit frameProcessed(record);
}

}  // namespace convolab::gui
