// SPDX-License-Identifier: MIT
// The chain's edits: each one a snapshot of the list pushed as one undo step (ChainStepsCommand); every
// change publishes the list's chain to whoever runs it (liveChainChanged).
#include "chain_controller.hpp"

#include <QDir>
#include <QFileInfo>
#include <QUndoStack>
#include <algorithm>

#include "chain_commands.hpp"
#include "convolab/filter_chain_io.hpp"

namespace convolab::gui {

ChainController::ChainController(QObject* parent) : QObject(parent) {}

int ChainController::idAt(int index) const {
  return index >= 0 && index < size() ? m_now.ids[static_cast<std::size_t>(index)] : -1;
}

int ChainController::indexOf(int id) const {
  if (id < 0) return -1;
  const auto found = std::find(m_now.ids.begin(), m_now.ids.end(), id);
  return found == m_now.ids.end() ? -1 : static_cast<int>(found - m_now.ids.begin());
}

QString ChainController::append(const ChainStep& step) {
  if (isFull()) return tr("The chain is full: %1 steps at most. Remove one first.").arg(kMaxChainSteps);
  try {
    FilterChain::make({step});  // the step alone must be valid (a magnitude's borders agree)
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  Snapshot next = m_now;
  next.steps.push_back(step);
  next.ids.push_back(m_nextId++);
  commit(std::move(next), tr("Add step %1").arg(size() + 1));
  return {};
}

void ChainController::remove(int index) {
  if (index < 0 || index >= size()) return;
  Snapshot next = m_now;
  next.steps.erase(next.steps.begin() + index);
  next.ids.erase(next.ids.begin() + index);
  commit(std::move(next), tr("Remove step %1").arg(index + 1));
}

int ChainController::move(int index, int delta) {
  if (index < 0 || index >= size()) return index;
  const int to = std::clamp(index + delta, 0, size() - 1);
  if (to == index) return index;
  Snapshot next = m_now;
  const ChainStep step = next.steps[static_cast<std::size_t>(index)];
  const int id = next.ids[static_cast<std::size_t>(index)];
  next.steps.erase(next.steps.begin() + index);
  next.ids.erase(next.ids.begin() + index);
  next.steps.insert(next.steps.begin() + to, step);
  next.ids.insert(next.ids.begin() + to, id);
  commit(std::move(next), tr("Move step %1 to %2").arg(index + 1).arg(to + 1));
  return to;
}

void ChainController::setEnabled(int index, bool enabled, bool undoable) {
  if (index < 0 || index >= size() || m_now.steps[static_cast<std::size_t>(index)].enabled == enabled) return;
  Snapshot next = m_now;
  next.steps[static_cast<std::size_t>(index)].enabled = enabled;
  commit(std::move(next),
         enabled ? tr("Switch on step %1").arg(index + 1) : tr("Switch off step %1").arg(index + 1),
         undoable);
}

void ChainController::replaceStep(int index, const ChainStep& step) {
  if (index < 0 || index >= size() || m_now.steps[static_cast<std::size_t>(index)] == step) return;
  m_now.steps[static_cast<std::size_t>(index)] = step;
  changed();
}

void ChainController::load(const FilterChain& chain, bool undoable) {
  Snapshot next;
  next.steps = chain.steps();
  for (std::size_t i = 0; i < next.steps.size(); ++i) next.ids.push_back(m_nextId++);
  next.name = QString::fromStdString(chain.name());
  const QString what = next.name.isEmpty() ? tr("Replace the chain") : tr("Load chain %1").arg(next.name);
  commit(std::move(next), what, undoable);
}

void ChainController::clear() {
  commit(Snapshot{}, tr("Clear the chain"));
}

void ChainController::commit(Snapshot next, const QString& what, bool undoable) {
  if (next == m_now) return;
  if (m_undo && undoable) return m_undo->push(new ChainStepsCommand(this, m_now, std::move(next), what));
  restore(next);
}

void ChainController::restore(const Snapshot& snapshot) {
  const int upTo = shownUpTo();
  m_now = snapshot;
  for (int id : m_now.ids) m_nextId = std::max(m_nextId, id + 1);
  if (upTo >= 0 && shownUpTo() < 0) {
    m_upToId = -1;  // its step is gone
    emit shownUpToChanged(-1);
  }
  changed();
}

void ChainController::setOn(bool on) {
  if (on == m_on) return;
  m_on = on;
  emit onChanged(on);
  emit liveChainChanged(liveChain());
}

void ChainController::setShownUpTo(int index) {
  const int id = idAt(index);
  if (id == m_upToId) return;
  m_upToId = id;
  emit shownUpToChanged(shownUpTo());
  if (m_on) emit liveChainChanged(liveChain());
}

std::optional<FilterChain> ChainController::chain() const {
  if (m_now.steps.empty()) return std::nullopt;
  return FilterChain::make(m_now.steps, m_now.name.toStdString());
}

std::optional<FilterChain> ChainController::liveChain() const {
  if (!m_on || m_now.steps.empty()) return std::nullopt;
  const int upTo = shownUpTo();
  if (upTo < 0) return chain();
  return FilterChain::make({m_now.steps.begin(), m_now.steps.begin() + upTo + 1}, m_now.name.toStdString());
}

QString ChainController::openFile(const QString& path) {
  try {
    const FilterChain chain = loadFilterChainFile(path.toStdString());
    load(chain.name().empty()
             ? FilterChain::make(chain.steps(), QFileInfo(path).completeBaseName().toStdString())
             : chain);
    return {};
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
}

QString ChainController::saveFile(const QString& path, bool overwrite) const {
  const std::optional<FilterChain> list = chain();
  if (!list) return tr("the chain has no step to save");
  try {
    saveFilterChainFile(path.toStdString(), *list, overwrite);
    return {};
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
}

void ChainController::changed() {
  emit stepsChanged();
  if (m_on) emit liveChainChanged(liveChain());
}

}  // namespace convolab::gui
