// SPDX-License-Identifier: MIT
// A chain taken on the live engine runs provisionally (step by step, new steps on dynamic); once its edits
// pause, the preparer prepares it fully (auto per step, fused or not measured) and the worker swaps it in.
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
  if (m_preparer) m_preparer->cancelUpgrade();   // one for an older chain could never be adopted
  if (m_strategy.name != kAutoStrategy) return;  // only auto chooses per step and measures fusion
  // The full preparation builds the fused kernel and times it on this process's cores (PoCL: its first launch
  // holds every queue): as auto's own background compiles, it waits until the edits pause.
  m_upgradeQuiet->start(std::max(coreConfig().autoQuietMs, 0));
}

void ProcessingWorker::requestUpgrade() {
  if (!m_preparer || !m_engine || m_strategy.name != kAutoStrategy || m_live.strategy != m_strategy ||
      m_live.context != m_context)
    return;
  const auto snapshot = m_filter->current();
  if (!(snapshot->chain == m_live.chain) || snapshot->chain.singleFilter()) return;  // moved on: rescheduled
  PrepareJob job = jobFor(*snapshot, m_live.width, m_live.height);
  job.id = m_nextJobId++;
  job.upgrade = true;
  m_preparer->request(std::move(job));
}

}  // namespace convolab::gui
