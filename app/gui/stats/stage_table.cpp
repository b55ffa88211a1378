// SPDX-License-Identifier: MIT
// The statistics panel's stage table: device time per stage (current, mean, p95), the total against the frame
// budget (amber above 75 %, red above it), and the budget.
#include "stats/stage_table.hpp"

#include <QHeaderView>
#include <QRegularExpression>

#include "stats/stats_chart.hpp"
#include "window/theme.hpp"

namespace convolab::gui {

namespace {

// "—" until there is a figure: never "0.00" for what was not measured yet.
const QString kNotMeasured = QStringLiteral("—");

/// A chain step's stage as the table shows it: "step 2: convolve_magnitude" → "2: magnitude", so it fits the
/// narrow Stage column beside the chain's list (numbered the same); the tooltip keeps the whole name.
QString stageLabel(const QString& name) {
  static const QRegularExpression step(QStringLiteral("^step (\\d+): (?:convolve_)?(.*)$"));
  const QRegularExpressionMatch m = step.match(name);
  return m.hasMatch() ? m.captured(1) + QStringLiteral(": ") + m.captured(2) : name;
}

QString ms(double v) {
  return QString::asprintf("%.2f", v);
}

// Device time per frame against the budget: above 75 % amber, above 100 % red.
QColor budgetColor(double total, double budget) {
  if (budget <= 0 || total <= 0) return theme::text();
  if (total > budget) return theme::danger();
  if (total > 0.75 * budget) return theme::warning();
  return theme::ok();
}

}  // namespace

StageTable::StageTable(QWidget* parent) : QTableWidget(0, 4, parent) {
  setObjectName(QStringLiteral("statsTable"));
  setHorizontalHeaderLabels({tr("Stage"), tr("Current"), tr("Mean"), tr("p95")});
  verticalHeader()->hide();
  setShowGrid(false);
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setSelectionMode(QAbstractItemView::NoSelection);
  setFocusPolicy(Qt::NoFocus);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  for (int c = 1; c < 4; ++c) horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
  horizontalHeaderItem(1)->setToolTip(tr("The newest frame"));
  horizontalHeaderItem(2)->setToolTip(tr("Mean over the last second"));
  horizontalHeaderItem(3)->setToolTip(tr("95th percentile over the last second"));
  verticalHeader()->setDefaultSectionSize(22);
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void StageTable::setCell(int row, int col, const QString& text, const QColor& color, const QString& tip,
                         bool bold) {
  auto* cell = item(row, col);
  if (!cell) {
    cell = new QTableWidgetItem;
    setItem(row, col, cell);
  }
  cell->setText(text);
  cell->setForeground(color);
  cell->setToolTip(tip);
  cell->setTextAlignment(col == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
  QFont f = col == 0 ? font() : theme::monoFont();
  f.setBold(bold);
  cell->setFont(f);
}

void StageTable::fill(const StatsSnapshot& s, bool still, StatsChart& chart) {
  const int rows = static_cast<int>(s.stages.size()) + 2;
  setRowCount(rows);
  for (int i = 0; i < static_cast<int>(s.stages.size()); ++i)
    showStageRow(i, s.stages[static_cast<size_t>(i)], chart);
  showTotalRow(rows - 2, s);
  showBudgetRow(rows - 1, s, still);
  setFixedHeight(horizontalHeader()->height() + rows * verticalHeader()->defaultSectionSize() + 4);
}

void StageTable::showStageRow(int row, const StageSummary& st, StatsChart& chart) {
  const QString name = QString::fromStdString(st.name);
  QString tip = name == QLatin1String("upload")     ? tr("Copying the frame from host memory to the device")
                : name == QLatin1String("download") ? tr("Copying the result back to host memory")
                                                    : tr("Kernel '%1' on the device").arg(name);
  setCell(
      row, 0, stageLabel(name),
      name == QLatin1String("upload") || name == QLatin1String("download") ? theme::dimText() : theme::text(),
      tip, false);
  setCell(row, 1, ms(st.current), theme::text(), tip, false);
  setCell(row, 2, ms(st.mean), theme::text(), tip, false);
  setCell(row, 3, ms(st.p95), theme::text(), tip, false);
  // The swatch ties the row to its line in the chart.
  item(row, 0)->setData(Qt::DecorationRole, chart.colorFor(name));
}

void StageTable::showTotalRow(int totalRow, const StatsSnapshot& s) {
  const QString totalTip =
      tr("Sum of the stages per frame. Amber above 75 % of the frame budget, red above it.");
  setCell(totalRow, 0, tr("Total"), theme::text(), totalTip, true);
  // Nothing processed in the last second (a still image or a paused source): the newest column is the last
  // pass, and mean and p95 cover the second up to it.
  if (auto* current = horizontalHeaderItem(1)) {
    current->setText(s.lastPass ? tr("Last pass") : tr("Current"));
    current->setToolTip(s.lastPass ? tr("Nothing was processed in the last second (a still image or a paused "
                                        "source): the figures of the last pass, mean and p95 over the second "
                                        "before it")
                                   : QString());
  }
  item(totalRow, 0)->setData(Qt::DecorationRole, theme::text());
  // No stage measured yet (the first frame is still on its way): "—", not a total of 0.00 ms.
  const bool measured = !s.stages.empty();
  const double totals[] = {s.total.current, s.total.mean, s.total.p95};
  for (int col = 1; col <= 3; ++col)
    setCell(totalRow, col, measured ? ms(totals[col - 1]) : kNotMeasured,
            budgetColor(totals[col - 1], s.budgetMs), totalTip, true);
}

void StageTable::showBudgetRow(int row, const StatsSnapshot& s, bool still) {
  const QString budgetTip = tr("Frame budget: 1000 / source fps. Processing must fit in it to keep up.");
  setCell(row, 0, tr("Budget"), theme::dimText(), budgetTip, false);
  item(row, 0)->setData(Qt::DecorationRole, theme::danger());
  setCell(row, 1, s.budgetMs > 0 && !still ? ms(s.budgetMs) : kNotMeasured, theme::dimText(), budgetTip,
          false);
  setCell(row, 2,
          s.budgetMs > 0 && s.total.mean > 0 && !still
              ? QStringLiteral("%1 %").arg(100.0 * s.total.mean / s.budgetMs, 0, 'f', 0)
              : QString(),
          budgetColor(s.total.mean, s.budgetMs), budgetTip, false);
  setCell(row, 3, QString(), theme::dimText(), budgetTip, false);
}

}  // namespace convolab::gui
