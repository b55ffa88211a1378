// SPDX-License-Identifier: MIT
// ComparisonChart: the bar set, the axes (log or linear), and the bars' names as text items beside the plot.
#include "compare_chart.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFont>
#include <QFontMetrics>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalBarSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "compare_table.hpp"
#include "window/theme.hpp"

namespace convolab::lab {
namespace {

const QColor kBar(0x3d, 0xa9, 0xfc);

QString rowLabel(const ComparisonRow& r) {
  QString s = QString::fromStdString(r.strategy);
  if (!r.variant.empty()) s += QStringLiteral(" ") + QString::fromStdString(r.variant);
  if (r.chainMode == "fused") s += ComparisonChart::tr(" (one launch)");
  if (r.chainMode == "steps") s += ComparisonChart::tr(", step by step");
  return s;
}

// The rows that measured ok as one bar set: one bar per strategy, the fastest a selected bar (its own
// colour). Three stacked sets, one per colour, left two empty segments in every bar, and a stack starts at 0:
// on the log axis each of those is log 0, and Qt Charts printed "Logarithms of zero and negative values are
// undefined." for every one.
struct Bars {
  QBarSet* set = nullptr;
  QStringList categories;  ///< each bar's name, bottom first
  double minMs = 0, maxMs = 0;
  int count = 0;
};

QString barLabel(const ComparisonRow& row) {
  QString label = rowLabel(row);
  if (row.active.viaAuto)
    label = QStringLiteral("auto → ") + QString::fromStdString(chosenByAuto(row.active));
  if (row.fastest) label += QStringLiteral(" ★");
  if (row.autoChoice) label += QStringLiteral(" ◆");
  if (row.runsNow) label += QStringLiteral(" ●");
  label += QStringLiteral("   %1 ms").arg(row.kernelMedianMs, 0, 'g', 3);
  return label;
}

Bars makeBars(const ComparisonReport& report, const QString& name) {
  Bars b;
  b.set = new QBarSet(name);
  b.set->setColor(kBar);
  b.set->setBorderColor(kBar);
  b.set->setSelectedColor(kCompareFastest);
  std::vector<const ComparisonRow*> ok;
  for (const auto& row : report.rows)
    if (row.ok()) ok.push_back(&row);
  // Horizontal bars grow upwards: add the slowest first so the fastest is on top.
  for (auto it = ok.rbegin(); it != ok.rend(); ++it) {
    const ComparisonRow& row = **it;
    b.categories << barLabel(row);
    b.set->append(row.kernelMedianMs);
    if (row.fastest) b.set->selectBar(b.set->count() - 1);
    b.maxMs = std::max(b.maxMs, row.kernelMedianMs);
    b.minMs = b.minMs == 0 ? row.kernelMedianMs : std::min(b.minMs, row.kernelMedianMs);
  }
  b.count = static_cast<int>(ok.size());
  return b;
}

// Times often span two or three decades (image vs codegen): a log axis keeps every bar readable.
QAbstractAxis* makeTimeAxis(bool log, double minMs, double maxMs) {
  if (log) {
    auto* axis = new QLogValueAxis;
    axis->setBase(10);
    axis->setRange(std::pow(10.0, std::floor(std::log10(minMs))),
                   std::pow(10.0, std::ceil(std::log10(maxMs * 1.5))));
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setMinorTickCount(8);
    axis->setMinorGridLineColor(gui::theme::panel());
    return axis;
  }
  auto* axis = new QValueAxis;
  axis->setRange(0, maxMs > 0 ? maxMs * 1.05 : 1);
  axis->applyNiceNumbers();
  axis->setLabelFormat(QStringLiteral("%g"));
  return axis;
}

void clearChart(QChart* chart) {
  chart->removeAllSeries();
  for (QAbstractAxis* axis : chart->axes()) {
    chart->removeAxis(axis);
    delete axis;
  }
}

}  // namespace

ComparisonChart::ComparisonChart(QWidget* parent) {
  auto* chart = new QChart;
  gui::theme::styleChart(chart);
  chart->setTitleBrush(gui::theme::text());
  chart->legend()->hide();
  m_view = new QChartView(chart, parent);
  m_view->setRenderHint(QPainter::Antialiasing);
  m_plotAreaChanged = QObject::connect(chart, &QChart::plotAreaChanged, m_view, [this] { placeBarLabels(); });
  chart->setMargins(QMargins(4, 2, 8, 2));
  m_view->setMinimumHeight(160);
}

ComparisonChart::~ComparisonChart() {
  QObject::disconnect(m_plotAreaChanged);
}

void ComparisonChart::fill(const ComparisonReport& report, bool logAxis, const QFont& font) {
  QChart* chart = m_view->chart();
  clearChart(chart);
  const Bars bars = makeBars(report, tr("kernel median ms"));
  const bool log = logAxis && bars.minMs > 0;
  auto* series = new QHorizontalBarSeries;
  series->append(bars.set);
  series->setBarWidth(0.72);
  chart->addSeries(series);
  auto* y = new QBarCategoryAxis;
  y->append(bars.categories);
  QAbstractAxis* x = makeTimeAxis(log, bars.minMs, bars.maxMs);
  x->setTitleText(
      (report.chainSteps.empty()
           ? tr("kernel median, ms%1 — shorter is faster; ★ fastest, ◆ auto's choice")
           : tr("kernel median of the whole chain, ms%1 — shorter is faster; ★ fastest, ● runs now"))
          .arg(log ? tr(" (log scale)") : QString()));
  QFont small = font;
  small.setPointSizeF(8.5);
  for (QAbstractAxis* axis : std::initializer_list<QAbstractAxis*>{x, y})
    gui::theme::styleAxis(axis, small, gui::theme::softText());
  chart->addAxis(y, Qt::AlignLeft);
  chart->addAxis(x, Qt::AlignBottom);
  series->attachAxis(y);
  series->attachAxis(x);
  // No title here (the summary line above says it; the room goes to the bars): savePng adds one.
  chart->setTitle({});
  y->setLabelsVisible(false);
  setBarLabels(bars.categories, small);
  // About 16 px a bar (10 past ten bars: a chain's rows, whose table is taller), and with every table row the
  // dialog still fits a 768-pixel screen.
  m_view->setMinimumHeight(std::max(160, bars.count > 10 ? 10 * bars.count + 50 : 16 * bars.count + 60));
}

// The bars' names are our own text items beside the plot: the category axis truncates a label to "…" unless
// each bar has about 25 px (Qt Charts takes twice its padding off the bar's height), which a 768-pixel screen
// cannot give eleven bars under an eleven-row table.
void ComparisonChart::setBarLabels(const QStringList& names, const QFont& font) {
  QChart* chart = m_view->chart();
  qDeleteAll(m_barLabels);
  m_barLabels.clear();
  int labelWidth = 0;
  const QFontMetrics metrics(font);
  for (const QString& text : names) {
    auto* item = new QGraphicsSimpleTextItem(text, chart);
    item->setFont(font);
    item->setBrush(gui::theme::softText());
    m_barLabels.push_back(item);
    labelWidth = std::max(labelWidth, metrics.horizontalAdvance(text));
  }
  chart->setMargins(QMargins(labelWidth + 12, 2, 8, 2));
  placeBarLabels();
}

void ComparisonChart::placeBarLabels() {
  const QRectF plot = m_view->chart()->plotArea();
  const int n = static_cast<int>(m_barLabels.size());
  for (int i = 0; i < n; ++i) {  // category i is the i-th bar from the bottom
    QGraphicsSimpleTextItem* item = m_barLabels[static_cast<size_t>(i)];
    const QRectF box = item->boundingRect();
    const double centre = plot.bottom() - (i + 0.5) * plot.height() / n;
    item->setPos(plot.left() - 6 - box.width(), centre - box.height() / 2);
  }
}

bool ComparisonChart::savePng(const QString& path, const QString& title, const QFont& font) const {
  QChart* chart = m_view->chart();
  QFont small = font;
  small.setPointSizeF(8.5);
  chart->setTitleFont(small);
  chart->setTitleBrush(gui::theme::text());
  chart->setTitle(title);
  const bool ok = m_view->grab().save(path, "PNG");
  chart->setTitle({});
  return ok;
}

}  // namespace convolab::lab
