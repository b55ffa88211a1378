// SPDX-License-Identifier: MIT
// The live engine and its successor: filter edits taken between frames when they build nothing, everything
// else prepared in the background and swapped in when ready; automated runs prepare synchronously.
#include "processing/engine_hand_over.hpp"

#include <QTimer>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "processing/custom_arguments.hpp"

namespace convolab::gui {

namespace {
// A preparation shorter than this (a coefficient upload) is not announced: no flicker while typing.
constexpr int kAnnounceAfterMs = 150;
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

EngineHandOver::EngineHandOver(const ProcessingDevice& device, std::shared_ptr<capture::LatestFrameSlot> slot,
                               std::shared_ptr<FilterMailbox> filter, QObject* parent)
    : QObject(parent),
      m_device(device),
      m_slot(std::move(slot)),
      m_filter(std::move(filter)),
      m_preparingGrace(new QTimer(this)),
      m_upgrade(new ChainUpgrade(this)) {
  connect(m_upgrade, &ChainUpgrade::due, this, &EngineHandOver::requestUpgrade);
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

EngineHandOver::~EngineHandOver() {
  m_preparer.reset();  // joins first: its callbacks refer to this object
}

void EngineHandOver::shutdown() {
  m_preparer.reset();
  m_engine.reset();
}

void EngineHandOver::setPreparing(const QString& message) {
  if (message == m_preparing) return;
  m_preparing = message;
  emit preparingChanged(m_preparing);
}

void EngineHandOver::stopWaiting() {
  m_waitingFor = 0;
  m_preparingGrace->stop();
  setPreparing({});
}

bool EngineHandOver::runsAsAsked(const PrepareJob& job) const {
  return job.context == m_device.context() && job.strategy == m_strategy && job.fusion == m_fusion;
}

bool EngineHandOver::liveIsCurrent(const FilterSnapshot& snapshot, int width, int height) const {
  return m_engine && runsAsAsked(m_live) && m_live.width == width && m_live.height == height &&
         (m_live.revision == snapshot.revision || m_live.chain == snapshot.chain);
}

PrepareJob EngineHandOver::jobFor(const FilterSnapshot& snapshot, int width, int height) const {
  PrepareJob job;
  job.context = m_device.context();
  job.queues = m_device.queues();
  job.strategy = m_strategy;
  job.fusion = m_fusion;
  job.chain = snapshot.chain;
  job.revision = snapshot.revision;
  job.width = width;
  job.height = height;
  return job;
}

bool EngineHandOver::bringUpToDate(const FilterSnapshot& snapshot, int width, int height, bool automated) {
  if (!liveIsCurrent(snapshot, width, height)) {
    if (automated)
      prepareNow(snapshot, width, height);
    else if (!takeFilterOnLive(snapshot, width, height))
      requestPreparation(snapshot, width, height);
  }
  const bool current = liveIsCurrent(snapshot, width, height);
  if (current) m_live.revision = snapshot.revision;  // same filter, published again
  return current;
}

void EngineHandOver::requestPreparation(const FilterSnapshot& snapshot, int width, int height) {
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

void EngineHandOver::prepareNow(const FilterSnapshot& snapshot, int width, int height) {
  PrepareJob job = jobFor(snapshot, width, height);
  job.id = m_nextJobId++;
  m_slot->setCounting(false);
  // Synchronous: keep using the live engine's own queue (its strategy only re-prepares what changed).
  const auto& queues = m_device.queues();
  const Context* other =
      m_engine && m_engine->sharedContext() == queues[0] ? queues[1].get() : queues[0].get();
  auto result = EnginePreparer::run(job, std::move(m_engine), other);
  for (const auto& n : result->notices) emit notice(QString::fromStdString(n));
  if (result->engine) {
    m_engine = std::move(result->engine);
    m_live = job;
    ++m_state;
  } else {
    emit failed(tr("Processing failed: %1").arg(QString::fromStdString(result->error)));
  }
}

bool EngineHandOver::takeFilterOnLive(const FilterSnapshot& snapshot, int width, int height) {
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
  ++m_state;
  if (!single) m_upgrade->schedule(m_preparer.get(), m_strategy, m_fusion);
  return true;
}

void EngineHandOver::requestUpgrade() {
  if (!m_preparer || !m_engine) return;
  const auto snapshot = m_filter->current();
  if (!ChainUpgrade::applies(m_live, m_strategy, m_fusion, m_device.context(), snapshot->chain)) return;
  PrepareJob job = jobFor(*snapshot, m_live.width, m_live.height);
  job.id = m_nextJobId++;
  job.upgrade = true;
  m_preparer->request(std::move(job));
}

void EngineHandOver::adopt(std::shared_ptr<PrepareResult> result) {
  if (!m_preparer) return;  // shut down
  for (const auto& n : result->notices) emit notice(QString::fromStdString(n));
  bool swapped = false;
  if (result->engine) {
    // Newer than the live engine and still for the device and strategy asked for: swap it in. An older
    // filter's engine is still adopted (it is closer to what the editor shows than the live one).
    if (runsAsAsked(result->job) && result->job.id > m_live.id) {
      if (m_engine) m_preparer->recycle(std::move(m_engine));
      m_engine = std::move(result->engine);
      m_preparer->setLiveContext(&m_engine->context());
      m_live = result->job;
      ++m_state;
      swapped = true;
    } else {
      m_preparer->recycle(std::move(result->engine));
    }
  } else if (!result->cancelled) {
    emit failed(tr("Cannot prepare strategy '%1': %2")
                    .arg(QString::fromStdString(result->job.strategy.toString()),
                         QString::fromStdString(result->error)));
  }
  if (result->job.id == m_waitingFor) stopWaiting();
  if (swapped) {
    emit adopted();  // a still or paused frame shows the result now, not at the next change
    const auto now = std::chrono::steady_clock::now();
    if (now - m_lastTrim >= kTrimInterval) {
      m_lastTrim = now;
      returnFreedMemory();
    }
  }
}

}  // namespace convolab::gui
