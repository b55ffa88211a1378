// SPDX-License-Identifier: MIT
// ScriptPlayer: applies a --script's edits at their times, through the editor's and the strategy menu's own
// code paths, and keeps each action's edit → screen time.
#pragma once

#include <QObject>
#include <QTimer>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "automation/edit_script.hpp"
#include "stats/edit_latency.hpp"

namespace convolab::gui {

class ChainDock;
class EditTracker;
class EngineSelector;
class FilterDocument;
class FilterEditor;
class Pipeline;
class PreviewWidget;

/// What the actions act on, as a user would: the document (cell, border, size), the editor (filter import),
/// the engine selector (strategy), the Chain dock (steps); the tracker measures, the preview's first painted
/// frame starts the clock.
struct ScriptTargets {
  FilterDocument* document;
  FilterEditor* editor;
  EngineSelector* engine;
  EditTracker* edits;
  PreviewWidget* preview;
  ChainDock* chain = nullptr;  ///< null: the step actions fail with a message
};

class ScriptPlayer : public QObject {
  Q_OBJECT

 public:
  /// How long after the last action's time the script ends even when an edit never reached the screen.
  static constexpr std::chrono::milliseconds kSettle{10000};

  ScriptPlayer(std::shared_ptr<const EditScript> script, ScriptTargets targets, QObject* parent = nullptr);

  /// One entry per action: its index, kind and edit → screen time (nullopt: not on screen, or not applied).
  std::vector<ScriptActionResult> results() const;

 signals:
  /// Every action reached the screen, or kSettle passed after the last one (emitted once).
  void finished();

 private:
  void start(std::chrono::steady_clock::time_point firstPainted);
  void applyDue();
  EditLatency::Ticket apply(std::size_t index);
  /// The Chain dock's actions, and the choice of what a cell edits (a step or the editor's own filter).
  /// False with `error` when it could not be done.
  bool applyChain(const ScriptAction& action, QString& error);
  void onReached(EditLatency::Ticket ticket, double ms);
  void finishOnce();
  void finishIfAllDone();  // every action reached the screen or failed

  std::shared_ptr<const EditScript> m_script;
  ScriptTargets m_targets;
  std::vector<EditLatency::Ticket> m_tickets;  // per applied action
  std::vector<std::optional<double>> m_ms;     // per action
  std::vector<std::string> m_errors;           // per action: why it failed, empty when it did not
  std::size_t m_next = 0;                      // the next action to apply
  std::chrono::steady_clock::time_point m_origin{};
  QTimer m_timer;
  QTimer m_settle;
  QMetaObject::Connection m_firstPaint;
  StrategyId m_lastRan;  // the strategy of the newest painted frame with timings: why a request never showed
  bool m_anyRan = false;
  bool m_finished = false;
};

}  // namespace convolab::gui
