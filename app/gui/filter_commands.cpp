// Undo commands of the filter editor.
#include "filter_commands.hpp"

#include "filter_document.hpp"

namespace convolab::gui {

SetFilterCommand::SetFilterCommand(FilterDocument* document, FilterSet before, FilterSet after,
                                   const QString& text, int mergeKey)
    : m_document(document), m_before(std::move(before)), m_after(std::move(after)), m_mergeKey(mergeKey) {
  setText(text);
}

void SetFilterCommand::undo() {
  m_document->apply(m_before);
}
void SetFilterCommand::redo() {
  m_document->apply(m_after);
}

bool SetFilterCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = static_cast<const SetFilterCommand*>(other);
  if (next->m_mergeKey != m_mergeKey) return false;
  m_after = next->m_after;
  return true;
}

}  // namespace convolab::gui
