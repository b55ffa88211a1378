// SPDX-License-Identifier: MIT
// A chain taken on the live engine runs provisionally (step by step, new steps on dynamic); once its edits
// pause, the preparer prepares it fully (auto per step, fused or not measured) and the worker swaps it in.
#include "processing/chain_upgrade.hpp"

#include <QTimer>
#include <algorithm>

#include "convolab/config.hpp"

namespace convolab::gui {

ChainUpgrade::ChainUpgrade(QObject* parent) : QObject(parent), m_quiet(new QTimer(this)) {
  m_quiet->setSingleShot(true);
  connect(m_quiet, &QTimer::timeout, this, &ChainUpgrade::due);
}

void ChainUpgrade::schedule(EnginePreparer* preparer, const StrategyId& strategy) {
  if (preparer) preparer->cancelUpgrade();     // one for an older chain could never be adopted
  if (strategy.name != kAutoStrategy) return;  // only auto chooses per step and measures fusion
  m_quiet->start(std::max(coreConfig().autoQuietMs, 0));
}

bool ChainUpgrade::applies(const PrepareJob& live, const StrategyId& requested,
                           const std::shared_ptr<Context>& context, const FilterChain& current) {
  if (requested.name != kAutoStrategy || live.strategy != requested || live.context != context) return false;
  return current == live.chain && !current.singleFilter();  // moved on: rescheduled by the next edit
}

}  // namespace convolab::gui
