// SPDX-License-Identifier: MIT
// Undo commands of the filter editor.
#include "editor/filter_commands.hpp"

#include "editor/filter_document.hpp"

namespace convolab::gui {

SetFilterCommand::SetFilterCommand(FilterDocument* document, FilterSet before, FilterSet after,
                                   FilterSet baselineBefore, FilterSet baselineAfter, const QString& text,
                                   int mergeKey)
    : m_document(document),
      m_before(std::move(before)),
      m_after(std::move(after)),
      m_baselineBefore(std::move(baselineBefore)),
      m_baselineAfter(std::move(baselineAfter)),
      m_mergeKey(mergeKey) {
  setText(text);
}

void SetFilterCommand::undo() {
  m_document->apply(m_before, m_baselineBefore);
}
void SetFilterCommand::redo() {
  m_document->apply(m_after, m_baselineAfter);
}

bool SetFilterCommand::mergeWith(const QUndoCommand* other) {
  // Another kind of command may share the id (a chain step's edit, StepEditCommand): never merged into this
  const auto* next = dynamic_cast<const SetFilterCommand*>(other);
  if (!next || next->m_mergeKey != m_mergeKey) return false;
  m_after = next->m_after;
  m_baselineAfter = next->m_baselineAfter;
  return true;
}

}  // namespace convolab::gui
