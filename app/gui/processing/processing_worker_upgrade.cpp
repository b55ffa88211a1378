// SPDX-License-Identifier: MIT
// A chain taken on the live engine runs provisionally (step by step, new steps on dynamic); once its edits
// pause, the preparer prepares it fully (auto per step, fused or not measured; or fused, as asked) and the
// worker swaps it in. And how a chain is asked to run (setChainFusion).
#include <QTimer>
#include <algorithm>

#include "convolab/config.hpp"
#include "processing/processing_worker.hpp"

namespace convolab::gui {

QTimer* ProcessingWorker::makeUpgradeTimer() {
  auto* timer = new QTimer(this);
  timer->setSingleShot(true);
  connect(timer, &QTimer::timeout, this, &ProcessingWorker::requestUpgrade);
  return timer;
}

void ProcessingWorker::scheduleUpgrade() {
  if (m_preparer) m_preparer->cancelUpgrade();  // one for an older chain could never be adopted
  // Only auto chooses per step and measures fusion, and only a chain asked to run fused builds its kernel.
  if (m_strategy.name != kAutoStrategy && m_fusion != ChainFusion::Fused) return;
  // The full preparation builds the fused kernel and times it on this process's cores (PoCL: its first launch
  // holds every queue): as auto's own background compiles, it waits until the edits pause.
  m_upgradeQuiet->start(std::max(coreConfig().autoQuietMs, 0));
}

void ProcessingWorker::requestUpgrade() {
  if (!m_preparer || !m_engine || (m_strategy.name != kAutoStrategy && m_fusion != ChainFusion::Fused) ||
      !runsAsAsked(m_live))
    return;
  const auto snapshot = m_filter->current();
  if (!(snapshot->chain == m_live.chain) || snapshot->chain.singleFilter()) return;  // moved on: rescheduled
  PrepareJob job = jobFor(*snapshot, m_live.width, m_live.height);
  job.id = m_nextJobId++;
  job.upgrade = true;
  m_preparer->request(std::move(job));
}

bool ProcessingWorker::runsAsAsked(const PrepareJob& job) const {
  return job.context == m_context && job.strategy == m_strategy && job.fusion == m_fusion;
}

void ProcessingWorker::setChainFusion(ChainFusion fusion) {
  if (fusion == m_fusion) return;
  m_fusion = fusion;  // the live engine is no longer as asked: a new one is prepared behind it
  ++m_engineState;
  filterChanged();
}

}  // namespace convolab::gui
