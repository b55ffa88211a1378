// SPDX-License-Identifier: MIT
// The chain's edits: every one publishes the list's chain to whoever runs it (liveChainChanged).
#include "chain_controller.hpp"

#include <QDir>
#include <QFileInfo>
#include <algorithm>

#include "convolab/filter_chain_io.hpp"

namespace convolab::gui {

ChainController::ChainController(QObject* parent) : QObject(parent) {}

QString ChainController::append(const ChainStep& step) {
  if (isFull()) return tr("The chain is full: %1 steps at most. Remove one first.").arg(kMaxChainSteps);
  try {
    FilterChain::make({step});  // the step alone must be valid (a magnitude's borders agree)
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  m_steps.push_back(step);
  changed();
  return {};
}

void ChainController::remove(int index) {
  if (index < 0 || index >= size()) return;
  m_steps.erase(m_steps.begin() + index);
  changed();
}

int ChainController::move(int index, int delta) {
  if (index < 0 || index >= size()) return index;
  const int to = std::clamp(index + delta, 0, size() - 1);
  if (to == index) return index;
  const ChainStep step = m_steps[static_cast<std::size_t>(index)];
  m_steps.erase(m_steps.begin() + index);
  m_steps.insert(m_steps.begin() + to, step);
  changed();
  return to;
}

void ChainController::setEnabled(int index, bool enabled) {
  if (index < 0 || index >= size() || m_steps[static_cast<std::size_t>(index)].enabled == enabled) return;
  m_steps[static_cast<std::size_t>(index)].enabled = enabled;
  changed();
}

void ChainController::load(const FilterChain& chain) {
  m_steps = chain.steps();
  m_name = QString::fromStdString(chain.name());
  changed();
}

void ChainController::clear() {
  m_steps.clear();
  m_name.clear();
  changed();
}

void ChainController::setOn(bool on) {
  if (on == m_on) return;
  m_on = on;
  emit onChanged(on);
  emit liveChainChanged(liveChain());
}

std::optional<FilterChain> ChainController::chain() const {
  if (m_steps.empty()) return std::nullopt;
  return FilterChain::make(m_steps, m_name.toStdString());
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
