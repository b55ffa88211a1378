// SPDX-License-Identifier: MIT
// ComparisonTable: headers and resize modes, filling the rows from a report, and fitting widths and heights.
#include "compare_table.hpp"

#include <QFont>
#include <QHeaderView>
#include <QPushButton>
#include <QStringList>
#include <QTableWidget>
#include <algorithm>
#include <utility>

#include "convolab/registry.hpp"
#include "window/theme.hpp"

namespace convolab::lab {
namespace {

const QColor kAuto(0xf5, 0xa6, 0x23);  // auto's choice in the table

/// The Strategy cell's tooltip: the cell whole (it may be capped), what its marks mean, and the strategy's
/// one-line description from the registry (what it does, for someone meeting the name for the first time).
QString strategyTip(const QString& cell, const QStringList& marks, const ComparisonRow& row) {
  QString tip = cell;
  if (!marks.isEmpty()) tip += QStringLiteral(" (") + marks.join(QStringLiteral(", ")) + QStringLiteral(")");
  if (row.chainMode == "fused")
    tip += QLatin1Char('\n') +
           ComparisonTable::tr(
               "The whole chain in one kernel launch: each work-group computes every step over "
               "its tile and the halo the later steps read, in local memory, rounding between "
               "steps as the steps one after another do.");
  else if (const StrategyEntry* e = findStrategy(row.strategy); e && !e->description.empty())
    tip += QLatin1Char('\n') +
           QString::fromUtf8(e->description.data(), static_cast<qsizetype>(e->description.size()));
  if (row.chainMode == "steps")
    tip += QLatin1Char('\n') + ComparisonTable::tr(
                                   "Step by step: every step of the chain with %1, one launch a "
                                   "step, the steps' times summed.")
                                   .arg(QString::fromStdString(row.strategy));
  return tip;
}

/// A chain row's Variant cell: "one launch", or each step's median ("1.21 + 0.80 + 1.00"), with a tooltip
/// that names each step and what ran it.
QTableWidgetItem* chainVariant(const ComparisonReport& report, const ComparisonRow& row) {
  if (row.chainMode == "fused") {
    auto* item = new QTableWidgetItem(ComparisonTable::tr("one launch"));
    item->setToolTip(ComparisonTable::tr("Every step in one kernel launch (convolve_fused)"));
    return item;
  }
  QStringList sums, lines;
  for (size_t i = 0; i < row.stepMedianMs.size(); ++i) {
    sums << QString::number(row.stepMedianMs[i], 'f', 2);
    const QString step =
        i < report.chainSteps.size() ? QString::fromStdString(report.chainSteps[i]) : QString::number(i + 1);
    const QString ran = i < row.stepActive.size() ? QString::fromStdString(row.stepActive[i]) : QString();
    lines << ComparisonTable::tr("step %1, ran %2: %3 ms").arg(step, ran).arg(row.stepMedianMs[i], 0, 'f', 3);
  }
  auto* item = new QTableWidgetItem(sums.isEmpty() ? ComparisonTable::tr("step by step") : sums.join(" + "));
  if (!lines.isEmpty())
    lines << ComparisonTable::tr("the median of the frames' sums: %1 ms").arg(row.kernelMedianMs, 0, 'f', 3);
  item->setToolTip(lines.isEmpty() ? ComparisonTable::tr("each step its own launch") : lines.join('\n'));
  return item;
}

}  // namespace

ComparisonTable::ComparisonTable(QWidget* owner) : m_owner(owner) {
  m_table = new QTableWidget(0, Count, owner);
  m_table->setObjectName(QStringLiteral("compareTable"));
  m_table->setHorizontalHeaderLabels({tr("Strategy"), tr("Variant"), tr("Median ms"), tr("p95 ms"),
                                      tr("Up ms"), tr("Down ms"), tr("Mpix/s"), tr("GFLOP/s"), tr("% peak"),
                                      tr("Max diff"), tr("Status"), QString()});
  m_table->horizontalHeaderItem(Gflops)->setToolTip(
      tr("Nominal: 2·K²·3 flops a pixel (direct convolution) divided by the kernel median; strategies that "
         "do less work (separable, zero taps skipped) can exceed what they really compute."));
  m_table->horizontalHeaderItem(MaxDiff)->setToolTip(
      tr("Largest |output − CPU reference| over the frame, in 8-bit levels."));
  m_table->verticalHeader()->hide();
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setAlternatingRowColors(true);
  // Names are capped and elided (their tooltips say them whole), numbers fit their contents, and Status
  // takes the rest of the width and wraps: a decline reason is read whole, never "…" (nor "at").
  QHeaderView* header = m_table->horizontalHeader();
  header->setSectionResizeMode(QHeaderView::ResizeToContents);
  header->setSectionResizeMode(Strategy, QHeaderView::Interactive);
  header->setSectionResizeMode(Variant, QHeaderView::Interactive);
  header->setSectionResizeMode(Status, QHeaderView::Stretch);
  header->setSectionResizeMode(Live, QHeaderView::Fixed);
  header->setMinimumSectionSize(36);
  m_table->setTextElideMode(Qt::ElideRight);
  m_table->setWordWrap(true);
  m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);  // fit: one line, or the status's
  m_table->verticalHeader()->setMinimumSectionSize(m_owner->fontMetrics().height() + 4);  // all rows fit
  m_statusResized = QObject::connect(header, &QHeaderView::sectionResized, m_owner, [this](int column) {
    if (column == Status) fitRows();  // a wrapped reason takes the lines it needs at the new width
  });
  m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

ComparisonTable::~ComparisonTable() {
  QObject::disconnect(m_statusResized);
}

void ComparisonTable::fill(const ComparisonReport& r,
                           const std::function<void(const QString&, const QString&)>& makeLive) {
  m_table->setSortingEnabled(false);
  m_table->setRowCount(static_cast<int>(r.rows.size()));
  auto number = [](double v, int digits) {
    auto* item = new QTableWidgetItem(QString::number(v, 'f', digits));
    item->setData(Qt::UserRole, v);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
  };
  for (int i = 0; i < static_cast<int>(r.rows.size()); ++i) {
    const ComparisonRow& row = r.rows[static_cast<size_t>(i)];
    QString name = QString::fromStdString(row.strategy);
    if (row.active.viaAuto) name += QStringLiteral(" → ") + QString::fromStdString(chosenByAuto(row.active));
    auto* nameItem = new QTableWidgetItem(name);
    QStringList marks, tips;
    if (row.fastest) marks << QStringLiteral("★"), tips << tr("fastest");
    if (row.autoChoice) marks << QStringLiteral("◆"), tips << tr("auto's choice");
    if (row.runsNow) marks << QStringLiteral("●"), tips << tr("what the preview runs now");
    if (!marks.isEmpty()) {
      nameItem->setText(name + QStringLiteral("  ") + marks.join(QString()));
      nameItem->setForeground(row.fastest ? kCompareFastest : row.autoChoice ? kAuto : gui::theme::text());
      QFont bold = nameItem->font();
      bold.setBold(true);
      nameItem->setFont(bold);
    }
    nameItem->setToolTip(strategyTip(nameItem->text(), tips, row));
    m_table->setItem(i, Strategy, nameItem);
    QTableWidgetItem* variant = nullptr;
    if (row.chainMode.empty()) {
      variant = new QTableWidgetItem(row.variant.empty() ? QStringLiteral("default")
                                                         : QString::fromStdString(row.variant));
      variant->setToolTip(variant->text());
    } else {
      variant = chainVariant(r, row);
    }
    m_table->setItem(i, Variant, variant);
    if (row.ok()) {
      m_table->setItem(i, Median, number(row.kernelMedianMs, 3));
      if (!row.chainMode.empty()) m_table->item(i, Median)->setToolTip(variant->toolTip());
      m_table->setItem(i, P95, number(row.kernelP95Ms, 3));
      m_table->setItem(i, Upload, number(row.uploadMs, 3));
      m_table->setItem(i, Download, number(row.downloadMs, 3));
      m_table->setItem(i, Mpix, number(row.mpixPerS, 1));
      m_table->setItem(i, Gflops, number(row.gflops, 1));
      m_table->setItem(i, Peak, number(100 * row.peakFraction, 1));
      auto* diff = row.maxDiff < 0 ? new QTableWidgetItem(QStringLiteral("–")) : number(row.maxDiff, 0);
      if (row.maxDiff < 0) diff->setToolTip(tr("No CPU reference: the chain has a custom OpenCL step"));
      if (row.maxDiff > 1) diff->setForeground(gui::theme::danger());
      m_table->setItem(i, MaxDiff, diff);
      m_table->setItem(i, Status, new QTableWidgetItem(tr("ok")));
    } else {
      for (int c = Median; c <= MaxDiff; ++c)
        m_table->setItem(i, c, new QTableWidgetItem(QStringLiteral("–")));
      auto* status = new QTableWidgetItem(QString::fromStdString(row.status + ": " + row.reason));
      status->setForeground(gui::theme::dimText());
      status->setToolTip(QString::fromStdString(row.status + ": " + row.reason));
      m_table->setItem(i, Status, status);
    }
    if (row.ok()) {
      auto* live = new QPushButton(tr("Make live"), m_table);
      live->setProperty("compact", true);  // a table row's height, not a dialog button's
      live->setFixedHeight(m_owner->fontMetrics().height() + 4);
      live->setObjectName(QStringLiteral("makeLive_") + QString::fromStdString(row.strategy));
      const QString strategy = QString::fromStdString(row.strategy);
      live->setToolTip(
          row.chainMode == "fused"   ? tr("Run the live chain fused: every step in one launch")
          : row.chainMode == "steps" ? tr("Run the live chain step by step with %1").arg(strategy)
          : row.variant.empty() || row.strategy == kAutoStrategy
              ? tr("Process the live preview with %1").arg(strategy)
              : tr("Process the live preview with %1 (the engine picks its default variant)").arg(strategy));
      const QString mode = QString::fromStdString(row.chainMode);
      QObject::connect(live, &QPushButton::clicked, m_owner,
                       [makeLive, strategy, mode] { makeLive(strategy, mode); });
      m_table->setCellWidget(i, Live, live);
    } else {
      m_table->removeCellWidget(i, Live);
      m_table->setItem(i, Live, new QTableWidgetItem);
    }
  }
}

void ComparisonTable::fit() {
  const QFontMetrics metrics = m_owner->fontMetrics();
  QHeaderView* header = m_table->horizontalHeader();
  const int strategyCap = metrics.horizontalAdvance(QStringLiteral("auto → codegen/b16x4-wg8x8 ★◆")) + 24;
  const int variantCap = metrics.horizontalAdvance(QStringLiteral("b16x4-wg8x8-f16-s0-c1")) + 16;
  for (const auto& [column, cap] : {std::pair{Strategy, strategyCap}, std::pair{Variant, variantCap}}) {
    m_table->resizeColumnToContents(column);
    if (m_table->columnWidth(column) > cap) m_table->setColumnWidth(column, cap);
  }
  int live = 0;
  for (int r = 0; r < m_table->rowCount(); ++r)
    if (QWidget* w = m_table->cellWidget(r, Live)) live = std::max(live, w->sizeHint().width());
  header->resizeSection(Live, std::max(live, 36));
  fitRows();
}

void ComparisonTable::fitRows() {
  const QFontMetrics metrics = m_owner->fontMetrics();
  const int line = metrics.height() + 4;
  const int statusText = std::max(1, m_table->columnWidth(Status) - 8);
  for (int r = 0; r < m_table->rowCount(); ++r) {
    const QTableWidgetItem* status = m_table->item(r, Status);
    const int wrapped =
        status
            ? metrics.boundingRect(QRect(0, 0, statusText, 10000), Qt::TextWordWrap, status->text()).height()
            : 0;
    m_table->setRowHeight(r, std::max(line, wrapped + 6));
  }
  // Every row visible: the table is at least as tall as its rows (up to 16 of them; more scroll).
  int height = m_table->horizontalHeader()->height() + 2 * m_table->frameWidth() + 2;
  for (int r = 0; r < std::min(m_table->rowCount(), 16); ++r) height += m_table->rowHeight(r);
  m_table->setMinimumHeight(std::max(height, 120));
}

}  // namespace convolab::lab
