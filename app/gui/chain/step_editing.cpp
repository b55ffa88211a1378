// SPDX-License-Identifier: MIT
// The editor on a chain step: the document shows the step; its changes are routed into StepEditCommands.
#include "step_editing.hpp"

#include <QUndoStack>
#include <algorithm>

#include "chain_commands.hpp"
#include "chain_controller.hpp"
#include "editor/filter_commands.hpp"
#include "editor/filter_document.hpp"

namespace convolab::gui {

StepEditing::StepEditing(ChainController* controller, FilterDocument* document, QObject* parent)
    : QObject(parent), m_controller(controller), m_document(document) {
  m_undoIndex = m_document->undoStack()->index();
  connect(m_controller, &ChainController::stepsChanged, this, &StepEditing::stepsChanged);
  connect(m_document->undoStack(), &QUndoStack::indexChanged, this, &StepEditing::undoMoved);
}

StepEditing::~StepEditing() {
  m_document->setEditRoute({});
}

int StepEditing::editedIndex() const {
  return m_bound ? m_controller->indexOf(m_bound->id) : -1;
}

FilterSet StepEditing::fitted(const FilterSet& edited, int stepSize) {
  const int k = std::max(edited.trimmedToSupport().size(), stepSize);
  return k < edited.size() ? edited.resizedTo(k) : edited;
}

void StepEditing::edit(int index, int part) {
  const int id = m_controller->idAt(index);
  const ChainStep* step = id < 0 ? nullptr : &m_controller->steps()[static_cast<std::size_t>(index)];
  if (!step || step->isCustom()) {
    if (m_bound) giveBack(true);
    return;
  }
  if (!step->isMagnitude()) part = 0;
  if (m_bound && m_bound->id == id && m_bound->part == part) return;
  show(id, part);
}

void StepEditing::giveBack(bool restoreFilter) {
  m_bound.reset();
  m_document->setEditRoute({});
  // Its Normalise boxes come back with the filter they were on for (after an undo they stay off: turning one
  // on re-normalises, an edit that must not be pushed while the stack is undoing)
  if (m_own && restoreFilter) {
    m_document->apply(m_own->filter, m_own->baseline);
    for (int c = 0; c < kChannels; ++c)
      m_document->setAutoNormalise(c, m_own->normalise[static_cast<std::size_t>(c)]);
  }
  m_own.reset();
  emit editedChanged(-1, 0);
}

void StepEditing::show(int id, int part) {
  const ChainStep& step = m_controller->steps()[static_cast<std::size_t>(m_controller->indexOf(id))];
  if (!m_own) {
    m_own = Own{m_document->filter(), m_document->baseline(), {}};
    for (int c = 0; c < kChannels; ++c)
      m_own->normalise[static_cast<std::size_t>(c)] = m_document->autoNormalise(c);
    // A step keeps its own divisor and offset (read first: while linked, one box turns all three off)
    for (int c = 0; c < kChannels; ++c) m_document->setAutoNormalise(c, false);
  }
  m_bound = Binding{id, part};
  m_document->setEditRoute([this](const FilterEdit& e) { return route(e); });
  const FilterSet shown = toEditorSize(part == 1 ? *step.other : step.filter);
  m_document->apply(shown, shown);
  emit editedChanged(m_controller->indexOf(id), part);
}

QUndoCommand* StepEditing::route(const FilterEdit& e) {
  const int index = editedIndex();
  if (index < 0) return nullptr;
  const ChainStep before = m_controller->steps()[static_cast<std::size_t>(index)];
  ChainStep after = before;
  FilterSet& target = m_bound->part == 1 ? *after.other : after.filter;
  target = fitted(e.after, target.size());
  if (after.isMagnitude()) {  // the two filters read the one input: one border
    FilterSet& partner = m_bound->part == 1 ? after.filter : *after.other;
    try {
      partner = FilterSet::make(partner.channels(), target.border(), target.borderValue(), partner.name())
                    .withGenerator(partner.generator());
    } catch (const std::exception& ex) {
      emit message(tr("Not applied: the magnitude's other filter refuses this border — %1")
                       .arg(QString::fromUtf8(ex.what())));
      return nullptr;
    }
  }
  return new StepEditCommand(this, m_bound->id, m_bound->part, before, after, e);
}

void StepEditing::apply(int stepId, int part, const ChainStep& step, const FilterSet& filter,
                        const FilterSet& baseline) {
  const int index = m_controller->indexOf(stepId);
  if (index < 0) return;
  if (!m_bound || m_bound->id != stepId || m_bound->part != part) show(stepId, part);
  m_controller->replaceStep(index, step);
  m_document->apply(filter, baseline);
}

void StepEditing::stepsChanged() {
  if (m_bound && editedIndex() < 0) edit(-1);
}

void StepEditing::undoMoved(int index) {
  const int previous = m_undoIndex;
  m_undoIndex = index;
  if (!m_bound) return;
  const int done = index < previous ? index : index - 1;  // undone: at index; redone or pushed: before it
  const QUndoCommand* command = done >= 0 ? m_document->undoStack()->command(done) : nullptr;
  if (!dynamic_cast<const SetFilterCommand*>(command)) return;
  // An edit of the editor's own filter was undone or redone: the document holds that filter now
  giveBack(false);
}

}  // namespace convolab::gui
