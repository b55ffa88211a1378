// SPDX-License-Identifier: MIT
// ChainUpgrade: a chain edit taken on the live engine runs provisionally (step by step, new steps on
// dynamic); under auto, once the edits pause, the chain is prepared fully behind it and swapped in. This
// class keeps that pause and says whether the full preparation still applies; EngineHandOver asks for it and
// adopts it.
#pragma once

#include <QObject>
#include <memory>

#include "convolab/context.hpp"
#include "convolab/engine.hpp"
#include "convolab/filter_chain.hpp"
#include "convolab/strategy_id.hpp"
#include "processing/engine_preparer.hpp"

class QTimer;

namespace convolab::gui {

/// Lives on the processing thread (a child of its EngineHandOver).
class ChainUpgrade : public QObject {
  Q_OBJECT

 public:
  explicit ChainUpgrade(QObject* parent);

  /// A chain edit was taken on the live engine, with `strategy` requested: an upgrade of an older chain that
  /// `preparer` runs is cancelled (it could never be adopted), and under auto the pause starts again.
  /// The full preparation builds the fused kernel and times it on this process's cores (PoCL: its first
  /// launch holds every queue): as auto's own background compiles, it waits until the edits pause.
  void schedule(EnginePreparer* preparer, const StrategyId& strategy, ChainFusion fusion);
  /// The upgrade of the live engine (prepared for `live`) still applies: auto (or a chain asked to run fused,
  /// Compare's "Make live") is requested and runs on `context`, and `current` (the newest chain) is the chain
  /// it runs, not a single filter.
  static bool applies(const PrepareJob& live, const StrategyId& requested, ChainFusion fusion,
                      const std::shared_ptr<Context>& context, const FilterChain& current);

 signals:
  /// The chain has stayed unchanged for CONVOLAB_AUTO_QUIET_MS since the last schedule().
  void due();

 private:
  QTimer* m_quiet;
};

}  // namespace convolab::gui
