// SPDX-License-Identifier: MIT
// Undo steps of the Chain dock.
#include "chain_commands.hpp"

#include "step_editing.hpp"

namespace convolab::gui {

ChainStepsCommand::ChainStepsCommand(ChainController* controller, ChainController::Snapshot before,
                                     ChainController::Snapshot after, const QString& text)
    : m_controller(controller), m_before(std::move(before)), m_after(std::move(after)) {
  setText(text);
}

void ChainStepsCommand::undo() {
  m_controller->restore(m_before);
}

void ChainStepsCommand::redo() {
  m_controller->restore(m_after);
}

StepEditCommand::StepEditCommand(StepEditing* editing, int stepId, int part, ChainStep before,
                                 ChainStep after, FilterEdit edit)
    : m_editing(editing),
      m_stepId(stepId),
      m_part(part),
      m_before(std::move(before)),
      m_after(std::move(after)),
      m_edit(std::move(edit)) {
  setText(QObject::tr("Step %1: %2").arg(m_editing->controller()->indexOf(stepId) + 1).arg(m_edit.what));
}

void StepEditCommand::undo() {
  m_editing->apply(m_stepId, m_part, m_before, m_edit.before, m_edit.baselineBefore);
}

void StepEditCommand::redo() {
  m_editing->apply(m_stepId, m_part, m_after, m_edit.after, m_edit.baselineAfter);
}

bool StepEditCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = dynamic_cast<const StepEditCommand*>(other);
  if (!next || next->m_edit.mergeKey != m_edit.mergeKey || next->m_stepId != m_stepId ||
      next->m_part != m_part)
    return false;
  m_after = next->m_after;
  m_edit.after = next->m_edit.after;
  m_edit.baselineAfter = next->m_edit.baselineAfter;
  setText(next->text());  // "Step 2: Set RGB[4, 4] = 9": the value it ends at
  return true;
}

}  // namespace convolab::gui
