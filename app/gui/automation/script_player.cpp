// SPDX-License-Identifier: MIT
// Playing a --script: one timer to the next action's time, each action applied as a user would apply it.
#include "automation/script_player.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "chain/chain_controller.hpp"
#include "chain/chain_dock.hpp"
#include "chain/step_editing.hpp"
#include "convolab/filter_chain_io.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "editor/filter_files.hpp"
#include "editor/generator_panel.hpp"
#include "preview/preview_widget.hpp"
#include "processing/engine_selector.hpp"
#include "stats/edit_tracker.hpp"

namespace convolab::gui {

static_assert(kScriptMinSize == kEditorSize, "a script assumes the editor's smallest matrix");

ScriptPlayer::ScriptPlayer(std::shared_ptr<const EditScript> script, ScriptTargets targets, QObject* parent)
    : QObject(parent),
      m_script(std::move(script)),
      m_targets(targets),
      m_ms(m_script->actions.size()),
      m_errors(m_script->actions.size()) {
  // The Chain dock of the preview's window, when the caller did not name it
  if (!m_targets.chain && m_targets.preview)
    m_targets.chain = m_targets.preview->window()->findChild<ChainDock*>();
  m_timer.setSingleShot(true);
  m_timer.setTimerType(Qt::PreciseTimer);
  connect(&m_timer, &QTimer::timeout, this, &ScriptPlayer::applyDue);
  m_settle.setSingleShot(true);
  m_settle.setInterval(kSettle);
  connect(&m_settle, &QTimer::timeout, this, &ScriptPlayer::finishOnce);
  connect(m_targets.edits, &EditTracker::reached, this, &ScriptPlayer::onReached);
  connect(m_targets.preview, &PreviewWidget::framePainted, this, [this](auto, const FrameRecord& record) {
    if (!record.hasTimings) return;
    m_lastRan = record.timings.strategy;
    m_anyRan = true;
  });
  // at_ms counts from the first painted frame.
  m_firstPaint = connect(m_targets.preview, &PreviewWidget::framePainted, this,
                         [this](auto when, const FrameRecord&) { start(when); });
}

void ScriptPlayer::start(std::chrono::steady_clock::time_point firstPainted) {
  disconnect(m_firstPaint);
  m_origin = firstPainted;
  m_timer.start(0);  // not from inside the paint event
}

void ScriptPlayer::applyDue() {
  const auto& actions = m_script->actions;
  while (m_next < actions.size()) {
    const auto due = m_origin + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double, std::milli>(actions[m_next].atMs));
    const auto now = std::chrono::steady_clock::now();
    if (now < due) {
      // In steps of at most an hour: a QTimer's int milliseconds must not overflow (the loop re-checks).
      const double waitMs = std::chrono::duration<double, std::milli>(due - now).count();
      m_timer.start(static_cast<int>(std::ceil(std::min(waitMs, 3'600'000.0))));
      return;
    }
    m_tickets.push_back(apply(m_next));
    ++m_next;
  }
  m_settle.start();
  finishIfAllDone();  // the last actions may all have failed: no frame will say they reached the screen
}

EditLatency::Ticket ScriptPlayer::apply(std::size_t index) {
  const ScriptAction& action = m_script->actions[index];
  const EditLatency::Ticket before = m_targets.edits->lastTicket();
  FilterDocument* document = m_targets.document;
  bool applied = true;  // a refused edit (the float-range rule) is reported, as the editor shows it
  QString error;
  switch (action.kind) {
    case ScriptAction::Kind::Filter:
      if (!m_targets.editor->files()->importFile(QString::fromStdString(action.filterPath.string()))) {
        std::fprintf(stderr, "convolab: script actions[%zu]: %s\n", index,
                     qPrintable(m_targets.editor->errorText()));
        // Nothing changed: the next frame does not show this action (it was once reported as reaching it).
        m_errors[index] = m_targets.editor->errorText().toStdString();
        return 0;  // no ticket: tickets start at 1
      }
      break;
    case ScriptAction::Kind::Cell:
      applied = applyChain(action, error) &&
                document->setCell(action.channel, action.row, action.col, action.value, &error);
      break;
    case ScriptAction::Kind::Border:
      applied = document->setBorder(action.border, &error);
      break;
    case ScriptAction::Kind::KSize:
      applied =
          document->setSize(action.ksize, &error);  // as the size control: pads or crops about the centre
      break;
    case ScriptAction::Kind::Strategy:
      m_targets.engine->setStrategy(QString::fromStdString(action.strategy));
      break;
    case ScriptAction::Kind::AddStep:
    case ScriptAction::Kind::RemoveStep:
    case ScriptAction::Kind::ToggleStep:
    case ScriptAction::Kind::RunChain:
      applied = applyChain(action, error);
      break;
    case ScriptAction::Kind::Generator:  // as the generators panel: a parameter moved
      applied = m_targets.editor->generators()->generate(action.generator, &error);
      break;
  }
  if (!applied) std::fprintf(stderr, "convolab: script actions[%zu]: %s\n", index, qPrintable(error));
  if (!applied && action.kind != ScriptAction::Kind::Cell) {
    m_errors[index] = error.toStdString();  // nothing changed: no frame shows it
    return 0;
  }
  // An action that changed nothing published nothing: it is on screen with the next current frame.
  const EditLatency::Ticket after = m_targets.edits->lastTicket();
  const EditLatency::Ticket ticket = after != before ? after : m_targets.edits->commitUnchanged();
  m_targets.edits->keep(ticket);  // its time is reported however many edits wait
  return ticket;
}

bool ScriptPlayer::applyChain(const ScriptAction& action, QString& error) {
  ChainDock* dock = m_targets.chain;
  if (action.kind == ScriptAction::Kind::Cell && action.step == 0) {
    if (dock && dock->stepEditing()) dock->stepEditing()->edit(-1);  // the editor's own filter
    return true;
  }
  if (!dock || !dock->stepEditing()) return error = QStringLiteral("there is no Chain dock"), false;
  ChainController* chain = dock->controller();
  if (action.step > chain->size()) {
    error = QStringLiteral("there is no step %1: the chain has %2").arg(action.step).arg(chain->size());
    return false;
  }
  const int index = action.step - 1;
  switch (action.kind) {
    case ScriptAction::Kind::Cell:
      dock->stepEditing()->edit(index);  // as selecting it in the list
      if (dock->stepEditing()->editedIndex() != index)
        return error = QStringLiteral("step %1 is custom OpenCL code: it has no cells").arg(action.step),
               false;
      return true;
    case ScriptAction::Kind::AddStep:
      try {
        const FilterChain file = loadFilterChainFile(action.filterPath);  // kept: the loop reads its steps
        for (const ChainStep& step : file.steps())
          if (const QString why = chain->append(step); !why.isEmpty()) return error = why, false;
      } catch (const std::exception& e) {
        return error = QString::fromUtf8(e.what()), false;
      }
      return true;
    case ScriptAction::Kind::RemoveStep:
      chain->remove(index);
      return true;
    case ScriptAction::Kind::ToggleStep:
      chain->setEnabled(index, !chain->steps()[static_cast<std::size_t>(index)].enabled);
      return true;
    case ScriptAction::Kind::RunChain:
      chain->setOn(action.on);
      return true;
    default:
      return true;
  }
}

void ScriptPlayer::onReached(EditLatency::Ticket ticket, double ms) {
  for (std::size_t i = 0; i < m_tickets.size(); ++i)
    if (m_tickets[i] == ticket) m_ms[i] = ms;
  finishIfAllDone();
}

void ScriptPlayer::finishIfAllDone() {
  if (m_next < m_ms.size()) return;
  for (std::size_t i = 0; i < m_ms.size(); ++i)
    if (!m_ms[i] && m_errors[i].empty()) return;
  finishOnce();
}

void ScriptPlayer::finishOnce() {
  if (m_finished) return;
  m_finished = true;
  m_settle.stop();
  emit finished();
}

std::vector<ScriptActionResult> ScriptPlayer::results() const {
  std::vector<ScriptActionResult> out;
  for (std::size_t i = 0; i < m_script->actions.size(); ++i) {
    const ScriptAction& action = m_script->actions[i];
    std::string error = m_errors[i];
    // A strategy the engine could not run for the filter (it fell back) never shows: say so beside the null.
    if (action.kind == ScriptAction::Kind::Strategy && !m_ms[i] && error.empty() && i < m_next && m_anyRan)
      error = strategyNotShownReason(action.strategy, m_lastRan);
    out.push_back({static_cast<int>(i), std::string(actionKindName(action.kind)), m_ms[i], error});
  }
  return out;
}

}  // namespace convolab::gui
