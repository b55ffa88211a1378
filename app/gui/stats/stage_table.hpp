// SPDX-License-Identifier: MIT
// StageTable: the statistics panel's table of device time per stage, with the total and the frame budget.
#pragma once

#include <QTableWidget>

#include "stats/stats_collector.hpp"

class QColor;

namespace convolab::gui {

class StatsChart;

class StageTable : public QTableWidget {
  Q_OBJECT

 public:
  explicit StageTable(QWidget* parent = nullptr);

  /// One row a stage (its swatch the colour of its line in `chart`), then the total and the frame budget;
  /// `still`: a still image has no budget.
  void fill(const StatsSnapshot& s, bool still, StatsChart& chart);

 private:
  void showStageRow(int row, const StageSummary& stage, StatsChart& chart);
  void showTotalRow(int row, const StatsSnapshot& s);
  void showBudgetRow(int row, const StatsSnapshot& s, bool still);
  void setCell(int row, int col, const QString& text, const QColor& color, const QString& tip, bool bold);
};

}  // namespace convolab::gui
