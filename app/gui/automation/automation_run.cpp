// SPDX-License-Identifier: MIT
// The command-line driven run: frame count, --snapshot / --stats outputs and the exit code.
#include "automation/automation_run.hpp"

#include <QCoreApplication>
#include <QFileInfo>
#include <QTimer>
#include <chrono>
#include <cstdio>

#include "convolab/atomic_file.hpp"
#include "convolab/error.hpp"
#include "outputs/frame_saver.hpp"
#include "processing/pipeline.hpp"
#include "stats/stats_collector.hpp"
#include "stats/stats_report.hpp"

namespace convolab::gui {

namespace {
/// An automated run whose source disconnected ends (exit 3) when it has not come back within this time.
constexpr int kAutomatedReconnectMs = 5000;
}  // namespace

AutomationRun::AutomationRun(LaunchOptions options, Pipeline* pipeline, StatsCollector* stats,
                             std::function<Facts()> facts, QObject* parent)
    : QObject(parent),
      m_options(std::move(options)),
      m_pipeline(pipeline),
      m_stats(stats),
      m_facts(std::move(facts)) {
  m_stats->setKeepRun(!m_options.stats.isEmpty());
  // --frames waits for every preparation so each counted frame has the newest filter; a script measures the
  // live path (edits reach the screen as they do for a user), so it keeps it, also with --frames.
  m_pipeline->setAutomated(counting() && !scripted());
}

void AutomationRun::startScript(const ScriptTargets& targets) {
  if (!scripted() || m_player) return;
  m_player = new ScriptPlayer(m_options.editScript, targets, this);
  connect(m_player, &ScriptPlayer::finished, this, [this] {
    if (!m_finishing) finish();
  });
}

void AutomationRun::frameProcessed(const FrameRecord& record) {
  ++m_framesThisRun;
  if (record.error.isEmpty()) ++m_framesWithoutError;
  if (counting() && !m_finishing && m_framesThisRun >= static_cast<std::uint64_t>(m_options.frames)) finish();
}

void AutomationRun::finish() {
  m_finishing = true;
  writeOutputs();
  if (m_framesWithoutError == 0 && m_exitCode == 0) m_exitCode = 4;
  const int code = m_exitCode;
  QTimer::singleShot(0, qApp, [code] { QCoreApplication::exit(code); });
}

void AutomationRun::fail(const QString& message) {
  if (m_finishing) return;
  m_finishing = true;
  std::fprintf(stderr, "convolab: %s\n", qPrintable(message));
  m_exitCode = 3;
  QTimer::singleShot(0, qApp, [] { QCoreApplication::exit(3); });
}

void AutomationRun::markBadInput() {
  if (automated()) m_exitCode = 3;
}

void AutomationRun::processingFailed(const QString& message) {
  if (counting()) std::fprintf(stderr, "convolab: %s\n", qPrintable(message));
}

void AutomationRun::sourceDisconnected(const QString& description, const QString& why) {
  if (!automated()) return;
  const std::uint64_t disconnect = ++m_disconnects;
  QTimer::singleShot(kAutomatedReconnectMs, this, [this, disconnect, why, description] {
    if (disconnect == m_disconnects)
      fail(tr("%1 stopped delivering frames and did not come back: %2").arg(description, why));
  });
}

void AutomationRun::windowClosing() {
  if (!m_finishing && (!m_options.snapshot.isEmpty() || !m_options.stats.isEmpty())) writeOutputs();
}

bool AutomationRun::writeOutputs() {
  if (m_outputsWritten) return m_exitCode == 0;
  m_outputsWritten = true;
  // An output path that exists must be a regular file: never replace a FIFO or a device node (as root,
  // `--stats /dev/full` once replaced the device with a file).
  for (const QString* out : {&m_options.snapshot, &m_options.stats}) {
    const QFileInfo info(*out);
    if (out->isEmpty() || !info.exists() || info.isFile()) continue;
    std::fprintf(stderr, "convolab: cannot write %s: it exists and is not a regular file\n",
                 qPrintable(*out));
    m_exitCode = 3;
    return false;
  }
  QString why;
  const auto frame = m_pipeline->frameThatMayLeave(&why);  // never an unfiltered frame (RELIABILITY.md)
  if (!m_options.snapshot.isEmpty()) {
    try {
      if (!frame) throw Error(ErrorKind::BadInput, "no filtered frame: " + why.toStdString());
      saveFrame(m_options.snapshot, *frame->filtered, m_options.force);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "convolab: cannot write snapshot %s: %s\n", qPrintable(m_options.snapshot),
                   e.what());
      m_exitCode = 3;
    }
  }
  if (!m_options.stats.isEmpty()) {
    const Facts facts = m_facts();
    m_stats->sampleSource(std::chrono::steady_clock::now(), m_pipeline->framesDelivered(),
                          m_pipeline->framesDropped(), facts.sourceFps);
    EditReport edits{facts.edits, std::nullopt, facts.firstFilteredMs};
    if (m_player) edits.actions = m_player->results();
    const std::string json = statsJson(m_stats->runSummary(), facts.deviceLabel.toStdString(),
                                       facts.strategy.toStdString(), m_framesThisRun, edits);
    try {
      writeFileAtomically(m_options.stats.toStdString(), json, m_options.force);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "convolab: cannot write stats %s: %s\n", qPrintable(m_options.stats), e.what());
      m_exitCode = 3;
    }
  }
  return m_exitCode == 0;
}

}  // namespace convolab::gui
