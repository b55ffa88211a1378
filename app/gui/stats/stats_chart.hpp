// SPDX-License-Identifier: MIT
// StatsChart: a Qt Charts line chart of per-stage device times over the last ten seconds, the display stage
// (the preview's upload and paint on the GUI thread) beside them, and the frame budget.
#pragma once

#include <QChartView>
#include <QMap>
#include <deque>

#include "stats/stats_collector.hpp"

class QLineSeries;
class QValueAxis;

namespace convolab::gui {

class StatsChart : public QChartView {
  Q_OBJECT

 public:
  explicit StatsChart(QWidget* parent = nullptr);

  /// Redraws from `history` (points at seconds since the collector started); `now` is the right edge.
  void updateSeries(const std::deque<StatsSample>& history, double now, double budgetMs);
  void clear();
  int seriesCount() const { return static_cast<int>(m_series.size()); }
  /// The colour of stage `name`'s line; the stats table uses it too, so rows and lines always match. A kernel
  /// keeps its colour while it is on the chart; colours of kernels gone from it are reused.
  QColor colorFor(const QString& name);
  /// The line of stage `name` (null when it has none).
  QLineSeries* series(const QString& name) const { return m_series.value(name, nullptr); }
  /// The y-axis range's top, ms.
  double yMax() const { return m_yMax; }
  /// The time axis (ms): its range, tick count and label format.
  QValueAxis* yAxis() const { return m_y; }
  /// Whether the frame budget line is on the chart (it is left off when it would squash the data).
  bool budgetShown() const;

 private:
  QLineSeries* seriesFor(const QString& name);

  QChart* m_chart;
  QValueAxis* m_x;
  QValueAxis* m_y;
  QMap<QString, QLineSeries*> m_series;
  QLineSeries* m_total;
  QLineSeries* m_budget;
  double m_yMax = 1;
  QMap<QString, int> m_kernelColors;  // kernel name → palette index
};

}  // namespace convolab::gui
