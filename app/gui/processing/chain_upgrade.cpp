// SPDX-License-Identifier: MIT
// A chain taken on the live engine runs provisionally (step by step, new steps on dynamic); once its edits
// pause, the preparer prepares it fully (auto per step, fused or not measured; or fused, as asked) and the
// worker swaps it in.
#include "processing/chain_upgrade.hpp"

#include <QTimer>
#include <algorithm>

#include "convolab/config.hpp"

namespace convolab::gui {

ChainUpgrade::ChainUpgrade(QObject* parent) : QObject(parent), m_quiet(new QTimer(this)) {
  m_quiet->setSingleShot(true);
  connect(m_quiet, &QTimer::timeout, this, &ChainUpgrade::due);
}

namespace {
/// Only auto chooses per step and measures fusion, and only a chain asked to run fused builds its kernel.
bool upgrades(const StrategyId& strategy, ChainFusion fusion) {
  return strategy.name == kAutoStrategy || fusion == ChainFusion::Fused;
}
}  // namespace

void ChainUpgrade::schedule(EnginePreparer* preparer, const StrategyId& strategy, ChainFusion fusion) {
  if (preparer) preparer->cancelUpgrade();  // one for an older chain could never be adopted
  if (!upgrades(strategy, fusion)) return;
  m_quiet->start(std::max(coreConfig().autoQuietMs, 0));
}

bool ChainUpgrade::applies(const PrepareJob& live, const StrategyId& requested, ChainFusion fusion,
                           const std::shared_ptr<Context>& context, const FilterChain& current) {
  if (!upgrades(requested, fusion) || live.strategy != requested || live.fusion != fusion ||
      live.context != context)
    return false;
  return current == live.chain && !current.singleFilter();  // moved on: rescheduled by the next edit
}

}  // namespace convolab::gui
