// SPDX-License-Identifier: MIT
// ChainController: the Chain dock's logic, no widgets — the list of steps (0–8, each switchable, each with an
// id that survives moves and undo), its switch "Run the chain", "show up to here", and its files. Every edit
// is one undo step on the undo stack it is given (the editor's: Edit ▸ Undo covers both).
#pragma once

#include <QObject>
#include <QString>
#include <optional>
#include <vector>

#include "convolab/filter_chain.hpp"

class QUndoStack;

namespace convolab::gui {

class ChainController : public QObject {
  Q_OBJECT

 public:
  /// The whole list at one moment: what an undo step restores.
  struct Snapshot {
    std::vector<ChainStep> steps;
    std::vector<int> ids;  ///< one per step: a step keeps its id through moves, edits and undo
    QString name;
    bool operator==(const Snapshot&) const = default;
  };

  explicit ChainController(QObject* parent = nullptr);

  /// Where edits push their undo steps (null: edits apply without undo, as before a window exists).
  void setUndoStack(QUndoStack* stack) { m_undo = stack; }
  QUndoStack* undoStack() const { return m_undo; }

  const std::vector<ChainStep>& steps() const { return m_now.steps; }
  int size() const { return static_cast<int>(m_now.steps.size()); }
  bool isFull() const { return size() >= kMaxChainSteps; }
  QString name() const { return m_now.name; }
  /// The id of step `index` (-1: none); the index of the step with `id` (-1: none).
  int idAt(int index) const;
  int indexOf(int id) const;

  /// Appends a step. Returns why not (empty: done): the chain is full, or the step is not valid here.
  QString append(const ChainStep& step);
  void remove(int index);
  /// Moves step `index` by `delta` places (clamped). Returns its new index.
  int move(int index, int delta);
  void setEnabled(int index, bool enabled, bool undoable = true);
  /// Replaces step `index` without an undo step: the editor's command (StepEditCommand) is the undo step of
  /// an edit made in the editor.
  void replaceStep(int index, const ChainStep& step);
  /// Replaces the whole list (a preset, a file; `undoable` false: the settings at start).
  void load(const FilterChain& chain, bool undoable = true);
  void clear();
  /// Applied by undo commands: the list as it was.
  void restore(const Snapshot& snapshot);
  const Snapshot& snapshot() const { return m_now; }

  /// The switch: while on (and the list has a step), the preview runs the chain instead of the editor's
  /// filter.
  void setOn(bool on);
  bool isOn() const { return m_on; }
  /// "Show up to here": the preview runs the chain only as far as step `index` (-1: the whole chain). A view,
  /// not an edit: no undo step, not saved; it follows the step through moves and ends when it is removed.
  void setShownUpTo(int index);
  int shownUpTo() const { return indexOf(m_upToId); }
  /// The list as a chain; nullopt when it is empty.
  std::optional<FilterChain> chain() const;
  /// What the preview should run: chain() (cut after shownUpTo()) while on, else nullopt.
  std::optional<FilterChain> liveChain() const;

  /// Opens a .json filter or chain file into the list. Returns why not (empty: done).
  QString openFile(const QString& path);
  /// Saves the list as a chain file (FILTER_FORMAT "steps"); refuses an existing file unless `overwrite`.
  QString saveFile(const QString& path, bool overwrite) const;

 signals:
  /// The list changed (a step added, removed, moved, switched, edited, or the whole list replaced).
  void stepsChanged();
  /// The switch changed (by setOn: the panel, the settings, or the other dock winning).
  void onChanged(bool on);
  /// "Show up to here" moved to another step or ended.
  void shownUpToChanged(int index);
  /// What the preview should run changed.
  void liveChainChanged(const std::optional<convolab::FilterChain>& chain);

 private:
  /// Makes `next` the list: through an undo step named `what` when there is a stack and `undoable`.
  void commit(Snapshot next, const QString& what, bool undoable = true);
  void changed();

  Snapshot m_now;
  int m_nextId = 1;
  int m_upToId = -1;
  bool m_on = false;
  QUndoStack* m_undo = nullptr;
};

}  // namespace convolab::gui
