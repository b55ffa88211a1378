// SPDX-License-Identifier: MIT
// EngineHandOver: the live engine that frames run on, and how the next one takes over: a filter edit that
// builds nothing is taken on the live engine between frames; anything else is prepared by the EnginePreparer
// on its own thread and swapped in when ready (automated runs prepare it here and wait).
#pragma once

#include <QObject>
#include <QString>
#include <chrono>
#include <cstdint>
#include <memory>

#include "capture/latest_frame_slot.hpp"
#include "convolab/engine.hpp"
#include "convolab/strategy_id.hpp"
#include "processing/chain_upgrade.hpp"
#include "processing/engine_preparer.hpp"
#include "processing/filter_mailbox.hpp"
#include "processing/processing_device.hpp"

class QTimer;

namespace convolab::gui {

/// Lives on the processing thread (a child of ProcessingWorker). While a preparation is waited for, the
/// slot does not count deliveries, and what the next engine waits on is announced (preparingChanged) once
/// it takes longer than a coefficient upload.
class EngineHandOver : public QObject {
  Q_OBJECT

 public:
  /// `device`: where engines run (outlives this); `slot`: its counting pauses while an engine is prepared;
  /// `filter`: read again when a chain upgrade is due.
  EngineHandOver(const ProcessingDevice& device, std::shared_ptr<capture::LatestFrameSlot> slot,
                 std::shared_ptr<FilterMailbox> filter, QObject* parent);
  ~EngineHandOver() override;

  /// The strategy asked for.
  const StrategyId& strategy() const { return m_strategy; }
  void setStrategy(const StrategyId& strategy) { m_strategy = strategy; }
  /// How a chain of several steps runs (Compare's "Make live": fused, or step by step); Auto by default.
  ChainFusion chainFusion() const { return m_fusion; }
  void setChainFusion(ChainFusion fusion) { m_fusion = fusion; }
  /// Grows whenever what a pass would produce changes other than by the filter: the live engine was swapped
  /// or took an edit, or (touch()) the requested strategy or device changed.
  std::uint64_t state() const { return m_state; }
  void touch() { ++m_state; }

  /// The live engine (null before the first) and what it was prepared for.
  Engine* engine() const { return m_engine.get(); }
  const PrepareJob& live() const { return m_live; }
  /// A preparation is waited for (not yet adopted).
  bool waiting() const { return m_waitingFor != 0; }
  /// What the next engine waits on ("measuring strategies 3/10…", "building kernel…"); empty when none.
  const QString& preparing() const { return m_preparing; }

  /// Makes the live engine run `snapshot` at this size, or asks the preparer to; `automated` (--frames)
  /// prepares it here and waits. True when the live engine is current afterwards.
  bool bringUpToDate(const FilterSnapshot& snapshot, int width, int height, bool automated);
  /// Stops the preparer and drops the live engine, before the device closes.
  void shutdown();

 signals:
  void notice(const QString& message);
  /// A preparation failed (the worker says so once per message).
  void failed(const QString& message);
  void preparingChanged(const QString& preparing);
  /// A prepared engine was swapped in: a still or paused frame should show it now.
  void adopted();

 private:
  /// `job` is for the device, strategy and chain fusion asked for now.
  bool runsAsAsked(const PrepareJob& job) const;
  /// The live engine runs `snapshot`'s filter with the requested strategy and device at this size.
  bool liveIsCurrent(const FilterSnapshot& snapshot, int width, int height) const;
  PrepareJob jobFor(const FilterSnapshot& snapshot, int width, int height) const;
  /// Applies a filter edit to the live engine on this thread when it builds nothing (Engine::
  /// preparesWithoutBuild): the next frame shows it, without a round trip through the preparer. False when
  /// it would build (then the preparer does it behind the live engine).
  bool takeFilterOnLive(const FilterSnapshot& snapshot, int width, int height);
  void requestPreparation(const FilterSnapshot& snapshot, int width, int height);
  void prepareNow(const FilterSnapshot& snapshot, int width, int height);
  void adopt(std::shared_ptr<PrepareResult> result);
  /// ChainUpgrade::due: asks the preparer for the full engine of the chain taken live, if it still applies.
  void requestUpgrade();
  void setPreparing(const QString& message);
  /// No preparation is waited for any more (it was adopted, or the live engine took the edit itself).
  void stopWaiting();

  const ProcessingDevice& m_device;
  std::shared_ptr<capture::LatestFrameSlot> m_slot;
  std::shared_ptr<FilterMailbox> m_filter;
  StrategyId m_strategy{std::string(kAutoStrategy)};
  ChainFusion m_fusion = ChainFusion::Auto;  // how a chain runs (setChainFusion)
  std::unique_ptr<Engine> m_engine;
  PrepareJob m_live;
  std::uint64_t m_state = 0;
  // The newest preparation asked for (not yet adopted while m_waitingFor != 0).
  PrepareJob m_requested;
  std::uint64_t m_nextJobId = 1;
  std::uint64_t m_waitingFor = 0;
  QString m_preparing;
  QTimer* m_preparingGrace;
  ChainUpgrade* m_upgrade;
  std::chrono::steady_clock::time_point m_lastTrim{};  // the last returnFreedMemory()
  std::unique_ptr<EnginePreparer> m_preparer;          // its callbacks refer to this object
};

}  // namespace convolab::gui
