// SPDX-License-Identifier: MIT
// StatsPanel: frame rates, drops, per-stage device times vs the frame budget, engine facts, and the live
// chart.
#pragma once

#include <QHash>
#include <QWidget>

#include "convolab/strategy_id.hpp"
#include "stats/edit_latency.hpp"
#include "stats/stage_table.hpp"
#include "stats/stats_collector.hpp"

class QGridLayout;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QPushButton;

namespace convolab::gui {

class StatsChart;

class StatsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit StatsPanel(QWidget* parent = nullptr);

  /// Refreshes the figures (about once a second).
  void showStats(const StatsSnapshot& stats);
  /// Refreshes the chart (a few times a second).
  void showHistory(const std::deque<StatsSample>& history, double now, double budgetMs);
  void setEngine(const QString& device, const StrategyId& requestedStrategy);
  /// What processing waits on ("measuring strategies 3/10…": drops are not counted meanwhile) and whether a
  /// still image is idle (processed once per change).
  void setProcessingState(const QString& preparing, bool stillIdle);
  /// The source is a still image: it has no frame rate, no drops and no frame budget, also while a change is
  /// being processed (the image source's repeats are no frames of its own).
  void setStillSource(bool still);
  /// Edit → screen: the newest edit's time and the longest since Reset (shown at once).
  void showEditLatency(const EditLatencySummary& edits);
  void clearChart();

  QString text() const { return m_text; }  ///< what "Copy" puts on the clipboard
  QLabel* valueLabel(const QString& key) const { return m_values.value(key); }
  QTableWidget* stageTable() const { return m_stages; }
  StatsChart* chart() const { return m_chart; }

 signals:
  void resetRequested();
  void copyRequested();

 private:
  QLabel* addRow(QGridLayout* grid, int row, const QString& name, const QString& tooltip, const QString& key);
  QGroupBox* makeThroughputBox();
  QGroupBox* makeStagesBox();
  QGroupBox* makeEngineBox();
  QGroupBox* makeChartBox();
  QHBoxLayout* makeButtons();

  void showRates(const StatsSnapshot& s, bool still);
  void showDropped(const StatsSnapshot& s, bool still);
  void showTimes(const StatsSnapshot& s);
  void showOutputs(const StatsSnapshot& s);
  void showStrategy(const StatsSnapshot& s);

  QLabel* m_source;
  QLabel* m_processed;
  QLabel* m_displayed;
  QLabel* m_dropped;
  QLabel* m_latency;
  QLabel* m_editLatency;
  QLabel* m_device;
  QLabel* m_strategy;
  StageTable* m_stages;
  StatsChart* m_chart;
  QString m_deviceName;
  StrategyId m_requested{std::string(kAutoStrategy)};
  QString m_text;
  QString m_preparing;
  bool m_stillIdle = false;
  bool m_stillSource = false;
  EditLatencySummary m_edits;
  QHash<QString, QLabel*> m_values;  // by key: the rows' value labels
};

}  // namespace convolab::gui
