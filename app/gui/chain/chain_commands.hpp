// SPDX-License-Identifier: MIT
// The Chain dock's undo steps, on the editor's undo stack (Edit ▸ Undo): a change of the list (add, remove,
// move, switch, load) and an edit of a step made in the filter editor.
#pragma once

#include <QUndoCommand>

#include "chain_controller.hpp"
#include "editor/filter_document.hpp"

namespace convolab::gui {

class StepEditing;

/// The list before and after one edit (at most 8 steps: whole snapshots, as SetFilterCommand keeps).
class ChainStepsCommand : public QUndoCommand {
 public:
  ChainStepsCommand(ChainController* controller, ChainController::Snapshot before,
                    ChainController::Snapshot after, const QString& text);
  void undo() override;
  void redo() override;

 private:
  ChainController* m_controller;
  ChainController::Snapshot m_before;
  ChainController::Snapshot m_after;
};

/// An edit of the filter editor while it edits chain step `stepId` (StepEditing): the document and the step
/// on each side. Undo and redo show that step in the editor first. Edits with the same merge key in a row
/// (one cell's keystrokes, arrow-stepping a divisor) of the same step collapse into one, as the editor's do.
class StepEditCommand : public QUndoCommand {
 public:
  StepEditCommand(StepEditing* editing, int stepId, int part, ChainStep before, ChainStep after,
                  FilterEdit edit);
  void undo() override;
  void redo() override;
  int id() const override { return m_edit.mergeKey == 0 ? -1 : m_edit.mergeKey; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  StepEditing* m_editing;
  int m_stepId;
  int m_part;
  ChainStep m_before;
  ChainStep m_after;
  FilterEdit m_edit;
};

}  // namespace convolab::gui
