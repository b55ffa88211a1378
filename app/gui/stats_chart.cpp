// The live stage-time chart: one series per stage name, kept to the last ten seconds.
#include "stats_chart.hpp"

#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "theme.hpp"

namespace convolab::gui {

StatsChart::StatsChart(QWidget* parent) : QChartView(parent), m_chart(new QChart) {
  m_chart->setBackgroundBrush(QColor(0x1e, 0x21, 0x27));
  m_chart->setBackgroundRoundness(0);
  m_chart->setMargins(QMargins(2, 2, 2, 2));
  m_chart->legend()->hide();  // the stats table above is the legend: its stage names carry these colours
  QFont small = font();
  small.setPointSizeF(8);
  m_x = new QValueAxis;
  m_x->setRange(-static_cast<double>(StatsCollector::kHistory.count()), 0);
  m_x->setTickCount(6);
  m_x->setLabelFormat(QStringLiteral("%.0f s"));
  m_y = new QValueAxis;
  m_y->setRange(0, m_yMax);
  m_y->setLabelFormat(QStringLiteral("%.0f"));
  m_y->setTitleText(tr("ms"));
  for (QValueAxis* axis : {m_x, m_y}) {
    axis->setLabelsColor(QColor(0x8a, 0x91, 0x9c));
    axis->setLabelsFont(small);
    axis->setGridLineColor(QColor(0x2c, 0x31, 0x3a));
    axis->setLinePenColor(QColor(0x3a, 0x40, 0x4a));
    axis->setTitleBrush(QColor(0x8a, 0x91, 0x9c));
    axis->setTitleFont(small);
  }
  m_chart->addAxis(m_x, Qt::AlignBottom);
  m_chart->addAxis(m_y, Qt::AlignLeft);

  m_budget = new QLineSeries;
  m_budget->setName(tr("budget"));
  QPen budgetPen(theme::danger(), 1.2, Qt::DashLine);
  m_budget->setPen(budgetPen);
  m_chart->addSeries(m_budget);
  m_budget->attachAxis(m_x);
  m_budget->attachAxis(m_y);
  m_total = new QLineSeries;
  m_total->setName(tr("total"));
  m_total->setPen(QPen(QColor(0xe3, 0xe6, 0xeb), 1.6));
  m_chart->addSeries(m_total);
  m_total->attachAxis(m_x);
  m_total->attachAxis(m_y);

  setChart(m_chart);
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(170);
  setToolTip(
      tr("Device time per stage for each processed frame, last 10 seconds. The dashed line is the frame "
         "budget (1000 / source fps): a total above it means frames are dropped."));
}

QLineSeries* StatsChart::seriesFor(const QString& name) {
  if (auto it = m_series.find(name); it != m_series.end()) return *it;
  auto* s = new QLineSeries;
  s->setName(name);
  s->setPen(QPen(theme::stageColor(name, m_kernelCount), 1.4));
  if (name != QLatin1String("upload") && name != QLatin1String("download")) ++m_kernelCount;
  m_chart->addSeries(s);
  s->attachAxis(m_x);
  s->attachAxis(m_y);
  m_series.insert(name, s);
  return s;
}

void StatsChart::clear() {
  for (QLineSeries* s : m_series) {
    m_chart->removeSeries(s);
    delete s;
  }
  m_series.clear();
  m_kernelCount = 0;
  m_total->clear();
  m_budget->clear();
}

void StatsChart::updateSeries(const std::deque<StatsSample>& history, double now, double budgetMs) {
  QMap<QString, QList<QPointF>> points;
  QList<QPointF> total;
  double maxY = 1;
  for (const StatsSample& s : history) {
    const double x = s.t - now;
    for (const auto& st : s.stages) points[QString::fromStdString(st.name)].append(QPointF(x, st.ms));
    total.append(QPointF(x, s.total));
    maxY = std::max(maxY, s.total);
  }
  for (auto it = points.begin(); it != points.end(); ++it) seriesFor(it.key())->replace(it.value());
  for (auto it = m_series.begin(); it != m_series.end(); ++it)
    if (!points.contains(it.key())) (*it)->clear();  // a stage of a strategy no longer in use
  m_total->replace(total);
  const double span = static_cast<double>(StatsCollector::kHistory.count());
  if (budgetMs > 0) {
    m_budget->replace({QPointF(-span, budgetMs), QPointF(0, budgetMs)});
    maxY = std::max(maxY, budgetMs);
  } else {
    m_budget->clear();
  }
  // Grow at once, shrink slowly, so the axis does not jump every refresh.
  const double target = std::pow(2.0, std::ceil(std::log2(maxY * 1.15)));
  m_yMax = target > m_yMax ? target : std::max(target, m_yMax * 0.9);
  m_y->setRange(0, m_yMax);
}

}  // namespace convolab::gui
