// SPDX-License-Identifier: MIT
// The live stage-time chart: one series per stage name, kept to the last ten seconds.
#include "stats/stats_chart.hpp"

#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <utility>

#include "window/theme.hpp"

namespace convolab::gui {

StatsChart::StatsChart(QWidget* parent) : QChartView(parent), m_chart(new QChart) {
  theme::styleChart(m_chart);
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
  m_y->setLabelFormat(QStringLiteral("%.1f"));
  m_y->setTitleText(tr("ms"));
  for (QValueAxis* axis : {m_x, m_y}) theme::styleAxis(axis, small);
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
  m_total->setPen(QPen(theme::text(), 1.6));
  m_chart->addSeries(m_total);
  m_total->attachAxis(m_x);
  m_total->attachAxis(m_y);

  setChart(m_chart);
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(170);
  setToolTip(
      tr("Device time per stage for each processed frame, last 10 seconds, and the display line: the "
         "preview's upload and paint of the frame on the GUI thread. The dashed line is the frame budget "
         "(1000 / source fps): a total above it means frames are dropped."));
}

QColor StatsChart::colorFor(const QString& name) {
  if (name == QLatin1String("upload") || name == QLatin1String("download") ||
      name == QLatin1String("display"))
    return theme::stageColor(name, 0);
  auto it = m_kernelColors.find(name);
  if (it == m_kernelColors.end()) {
    int index = 0;  // the first palette entry no kernel on the chart uses
    while (std::find(m_kernelColors.cbegin(), m_kernelColors.cend(), index) != m_kernelColors.cend()) ++index;
    it = m_kernelColors.insert(name, index);
  }
  return theme::stageColor(name, *it);
}

bool StatsChart::budgetShown() const {
  return m_budget->count() > 0;
}

QLineSeries* StatsChart::seriesFor(const QString& name) {
  if (auto it = m_series.find(name); it != m_series.end()) return *it;
  auto* s = new QLineSeries;
  s->setName(name);
  s->setPen(QPen(colorFor(name), 1.4));
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
  m_kernelColors.clear();
  m_total->clear();
  m_budget->clear();
}

void StatsChart::updateSeries(const std::deque<StatsSample>& history, double now, double budgetMs) {
  QMap<QString, QList<QPointF>> points;
  QList<QPointF> total;
  double maxY = 0;
  for (const StatsSample& s : history) {
    const double x = s.t - now;
    for (const auto& st : s.stages) points[QString::fromStdString(st.name)].append(QPointF(x, st.ms));
    total.append(QPointF(x, s.total));
    maxY = std::max(maxY, s.total);
    // The preview's upload and paint on the GUI thread, beside the engine's stages (not in their total).
    if (s.displayMs >= 0) {
      points[QStringLiteral("display")].append(QPointF(x, s.displayMs));
      maxY = std::max(maxY, s.displayMs);
    }
  }
  // A stage no longer on the chart (a strategy switched away from) gives its line and colour back.
  for (auto it = m_series.begin(); it != m_series.end();) {
    if (points.contains(it.key())) {
      ++it;
      continue;
    }
    m_chart->removeSeries(*it);
    delete *it;
    m_kernelColors.remove(it.key());
    it = m_series.erase(it);
  }
  for (auto it = points.begin(); it != points.end(); ++it) seriesFor(it.key())->replace(it.value());
  m_total->replace(total);
  const double span = static_cast<double>(StatsCollector::kHistory.count());
  // The axis follows the data (sub-millisecond kernels must not lie flat on a 0–64 ms axis). The budget
  // line joins it when it does not squash the data; otherwise the axis title names it.
  const bool showBudget = budgetMs > 0 && (maxY <= 0 || budgetMs <= 3 * maxY);
  if (showBudget) {
    m_budget->replace({QPointF(-span, budgetMs), QPointF(0, budgetMs)});
    maxY = std::max(maxY, budgetMs);
  } else {
    m_budget->clear();
  }
  if (maxY <= 0) maxY = 1;
  // The next "nice" value (1, 2, 5 × 10^n) above the data, with a little headroom.
  const double want = maxY * 1.1;
  const double decade = std::pow(10.0, std::floor(std::log10(want)));
  // Ticks on whole steps of the scale (1, 2, 5 × 10^n): 0–10 ticks 0, 2, 4 … (it read 0/3/5/8/10 with five
  // ticks of 2.5 printed without decimals, issue 33.6), 0–5 ticks every 1, 0–2 every 0.5, 0–1 every 0.2.
  double top = 10 * decade, step = 2 * decade;
  for (const auto& [multiple, stepOf] : {std::pair{1.0, 0.2}, {2.0, 0.5}, {5.0, 1.0}, {10.0, 2.0}})
    if (multiple * decade >= want) {
      top = multiple * decade;
      step = stepOf * decade;
      break;
    }
  m_yMax = top;
  m_y->setRange(0, m_yMax);
  m_y->setTickCount(static_cast<int>(std::lround(top / step)) + 1);
  // As many decimals as the step has: 0.5 → 1, 0.2 → 1, 0.05 → 2, 2 → 0.
  const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
  m_y->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
  m_y->setTitleText(showBudget || budgetMs <= 0
                        ? tr("ms")
                        : tr("ms (budget %1 ms, above the scale)").arg(budgetMs, 0, 'f', 1));
}

}  // namespace convolab::gui
