// StatsChart: a Qt Charts line chart of per-stage device times over the last ten seconds, with the frame
// budget.
#pragma once

#include <QChartView>
#include <QMap>
#include <deque>

#include "stats_collector.hpp"

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

 private:
  QLineSeries* seriesFor(const QString& name);

  QChart* m_chart;
  QValueAxis* m_x;
  QValueAxis* m_y;
  QMap<QString, QLineSeries*> m_series;
  QLineSeries* m_total;
  QLineSeries* m_budget;
  double m_yMax = 10;
  int m_kernelCount = 0;
};

}  // namespace convolab::gui
