// SPDX-License-Identifier: MIT
// CompareDialog: controls, progress, the results table with per-row "Make live", and the bar chart.
#include "compare_dialog.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QFile>
#include <QFileDialog>
#include <QGraphicsSimpleTextItem>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLogValueAxis>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScreen>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

#include "background_task.hpp"
#include "convolab/context.hpp"
#include "convolab/registry.hpp"
#include "convolab/strategy_id.hpp"
#include "theme.hpp"

namespace convolab::lab {
namespace {

const QColor kBar(0x3d, 0xa9, 0xfc);
const QColor kFastest(0x4c, 0xc3, 0x6a);
const QColor kAuto(0xf5, 0xa6, 0x23);  // auto's choice in the table

struct Outcome {
  ComparisonReport report;
  std::shared_ptr<Context> context;
  QString error;
};

/// What auto chose without the "auto:" prefix: "tiled/16x8".
std::string chosenByAuto(StrategyId id) {
  id.viaAuto = false;
  return id.toString();
}

/// The Strategy cell's tooltip: the cell whole (it may be capped), what its marks mean, and the strategy's
/// one-line description from the registry (what it does, for someone meeting the name for the first time).
QString strategyTip(const QString& cell, const QStringList& marks, const std::string& strategy) {
  QString tip = cell;
  if (!marks.isEmpty()) tip += QStringLiteral(" (") + marks.join(QStringLiteral(", ")) + QStringLiteral(")");
  if (const StrategyEntry* e = findStrategy(strategy); e && !e->description.empty())
    tip += QLatin1Char('\n') +
           QString::fromUtf8(e->description.data(), static_cast<qsizetype>(e->description.size()));
  return tip;
}

QString rowLabel(const ComparisonRow& r) {
  QString s = QString::fromStdString(r.strategy);
  if (!r.variant.empty()) s += QStringLiteral(" ") + QString::fromStdString(r.variant);
  return s;
}

bool writeText(const QString& path, const std::string& text) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return false;
  f.write(text.data(), static_cast<qint64>(text.size()));
  return f.commit();
}

enum Column {
  Strategy,
  Variant,
  Median,
  P95,
  Upload,
  Download,
  Mpix,
  Gflops,
  Peak,
  MaxDiff,
  Status,
  Live,
  Count
};

}  // namespace

CompareDialog::CompareDialog(LabInputsProvider inputs, QWidget* parent)
    : QDialog(parent), m_inputs(std::move(inputs)) {
  setObjectName(QStringLiteral("compareDialog"));
  setWindowTitle(tr("Compare Strategies"));
  if (const QScreen* screen = parent ? parent->screen() : QGuiApplication::primaryScreen())
    resize(defaultSize(screen->availableGeometry()));
  else
    resize(defaultSize(QRect(0, 0, 1366, 768)));

  m_iterations = new QSpinBox(this);
  m_iterations->setRange(1, 500);
  m_iterations->setValue(10);
  m_iterations->setToolTip(tr("Timed runs per strategy; the table shows their median and 95th percentile."));
  m_variants = new QCheckBox(tr("Every tuning variant"), this);
  m_variants->setToolTip(
      tr("Also time each launch-shape variant (e.g. tiled 16x8, 32x8), not only the default."));
  m_auto = new QCheckBox(tr("Include auto"), this);
  m_auto->setChecked(true);
  m_auto->setToolTip(tr("Also run auto and mark the strategy it chooses for this device, size and filter."));
  m_logChart = new QCheckBox(tr("Log time axis"), this);
  m_logChart->setChecked(true);
  m_logChart->setToolTip(tr("Chart times on a logarithmic axis (strategies often differ by 100x)"));
  connect(m_logChart, &QCheckBox::toggled, this, [this] {
    if (!m_report.rows.empty()) fillChart();
  });
  m_run = new QPushButton(tr("Run"), this);
  m_run->setObjectName(QStringLiteral("compareRun"));
  m_run->setDefault(true);
  m_stop = new QPushButton(tr("Cancel"), this);
  m_stop->setEnabled(false);
  m_progress = new QProgressBar(this);
  m_progress->setRange(0, 1);
  m_progress->setValue(0);
  m_progress->setTextVisible(true);

  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Runs per strategy:"), this));
  controls->addWidget(m_iterations);
  controls->addSpacing(12);
  controls->addWidget(m_variants);
  controls->addWidget(m_auto);
  controls->addWidget(m_logChart);
  controls->addStretch(1);
  controls->addWidget(m_progress, 2);
  controls->addWidget(m_run);
  controls->addWidget(m_stop);

  m_summary = new QLabel(this);
  m_summary->setWordWrap(true);
  m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_state = new QLabel(this);
  m_state->setStyleSheet(gui::theme::textStyle(gui::theme::dimText()));

  m_table = new QTableWidget(0, Count, this);
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
  m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);  // fitTable: one line, or the status's
  m_table->verticalHeader()->setMinimumSectionSize(fontMetrics().height() + 4);  // compact: all rows fit
  connect(header, &QHeaderView::sectionResized, this, [this](int column) {
    if (column == Status) fitRows();  // a wrapped reason takes the lines it needs at the new width
  });
  m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

  auto* chart = new QChart;
  gui::theme::styleChart(chart);
  chart->setTitleBrush(gui::theme::text());
  chart->legend()->hide();
  m_chartView = new QChartView(chart, this);
  m_chartView->setRenderHint(QPainter::Antialiasing);
  connect(chart, &QChart::plotAreaChanged, this, [this] { placeBarLabels(); });
  chart->setMargins(QMargins(4, 2, 8, 2));
  m_chartView->setMinimumHeight(160);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(m_table);
  splitter->addWidget(m_chartView);
  splitter->setChildrenCollapsible(false);
  splitter->setStretchFactor(0, 0);  // the table as tall as its rows (fitTable), the chart the rest
  splitter->setStretchFactor(1, 1);

  m_exportMd = new QPushButton(tr("Export Markdown…"), this);
  m_exportCsv = new QPushButton(tr("Export CSV…"), this);
  m_exportPng = new QPushButton(tr("Export Chart PNG…"), this);
  auto* close = new QPushButton(tr("Close"), this);
  auto* bottom = new QHBoxLayout;
  bottom->addWidget(m_state, 1);
  bottom->addWidget(m_exportMd);
  bottom->addWidget(m_exportCsv);
  bottom->addWidget(m_exportPng);
  bottom->addWidget(close);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(m_summary);
  layout->addWidget(splitter, 1);
  layout->addLayout(bottom);

  connect(m_run, &QPushButton::clicked, this, [this] { start(); });
  connect(m_stop, &QPushButton::clicked, this, &CompareDialog::cancel);
  connect(close, &QPushButton::clicked, this, &QDialog::close);
  connect(m_exportMd, &QPushButton::clicked, this, [this] { exportAs(QStringLiteral("md")); });
  connect(m_exportCsv, &QPushButton::clicked, this, [this] { exportAs(QStringLiteral("csv")); });
  connect(m_exportPng, &QPushButton::clicked, this, [this] { exportAs(QStringLiteral("png")); });
  setRunning(false);
  m_state->setText(tr("Runs every strategy on the current frame, filter and device, off the GUI thread."));
}

CompareDialog::~CompareDialog() {
  cancel();
  if (m_thread) m_thread->wait(10000);
}

void CompareDialog::setRunning(bool running) {
  m_running = running;
  m_run->setEnabled(!running);
  m_stop->setEnabled(running);
  m_iterations->setEnabled(!running);
  m_variants->setEnabled(!running);
  m_auto->setEnabled(!running);
  const bool have = !running && !m_report.rows.empty();
  m_exportMd->setEnabled(have);
  m_exportCsv->setEnabled(have);
  m_exportPng->setEnabled(have);
}

bool CompareDialog::start() {
  if (m_running) return true;
  const LabInputs in = m_inputs ? m_inputs() : LabInputs{};
  if (!in.frame || in.frame->width < 1) {
    m_state->setText(tr("No frame yet: open a source first."));
    return false;
  }
  ComparisonOptions options;
  options.iterations = m_iterations->value();
  options.allVariants = m_variants->isChecked();
  options.includeAuto = m_auto->isChecked();
  m_cancel = std::make_shared<std::atomic<bool>>(false);
  auto cancel = m_cancel;
  std::shared_ptr<Context> context = in.deviceSpec == m_contextSpec ? m_context : nullptr;
  m_contextSpec = in.deviceSpec;
  const std::string spec = in.deviceSpec.toStdString();
  QPointer<CompareDialog> self(this);
  setRunning(true);
  m_progress->setRange(0, 1);
  m_progress->setValue(0);
  m_state->setText(tr("Opening the device…"));
  m_thread = runInBackground<Outcome>(
      this,
      [in, options, cancel, context, spec, self]() mutable {
        Outcome out;
        try {
          if (!context) context = std::make_shared<Context>(spec);
          out.context = context;
          out.report = compareStrategies(
              *context, in.filter, in.frame->view(), options,
              [cancel, self](int done, int total, const std::string& label) {
                QMetaObject::invokeMethod(
                    QCoreApplication::instance(),
                    [self, done, total, label] {
                      if (!self) return;
                      self->m_progress->setRange(0, total);
                      self->m_progress->setValue(done);
                      self->m_state->setText(tr("Measuring %1…").arg(QString::fromStdString(label)));
                      emit self->progressed(done, total);
                    },
                    Qt::QueuedConnection);
                return !cancel->load();
              });
        } catch (const std::exception& e) {
          out.error = QString::fromStdString(e.what());
        }
        return out;
      },
      [this](Outcome out) {
        if (out.context) m_context = out.context;
        setRunning(false);
        if (!out.error.isEmpty()) {
          m_state->setText(tr("Comparison failed: %1").arg(out.error));
          emit finished();
          return;
        }
        m_report = std::move(out.report);
        showReport();
        setRunning(false);
        emit finished();
      });
  return true;
}

QSize CompareDialog::defaultSize(const QRect& available) {
  return {std::min(1320, available.width() - 40), std::min(860, available.height() - 40)};
}

void CompareDialog::setReport(ComparisonReport report) {
  m_report = std::move(report);
  showReport();
  setRunning(false);
}

void CompareDialog::resizeEvent(QResizeEvent* event) {
  QDialog::resizeEvent(event);
  fitTable();
}

void CompareDialog::fitTable() {
  QHeaderView* header = m_table->horizontalHeader();
  const int strategyCap =
      fontMetrics().horizontalAdvance(QStringLiteral("auto → codegen/b16x4-wg8x8 ★◆")) + 24;
  const int variantCap = fontMetrics().horizontalAdvance(QStringLiteral("b16x4-wg8x8-f16-s0-c1")) + 16;
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

void CompareDialog::fitRows() {
  const int line = fontMetrics().height() + 4;
  const int statusText = std::max(1, m_table->columnWidth(Status) - 8);
  for (int r = 0; r < m_table->rowCount(); ++r) {
    const QTableWidgetItem* status = m_table->item(r, Status);
    const int wrapped =
        status ? fontMetrics()
                     .boundingRect(QRect(0, 0, statusText, 10000), Qt::TextWordWrap, status->text())
                     .height()
               : 0;
    m_table->setRowHeight(r, std::max(line, wrapped + 6));
  }
  // Every row visible: the table is at least as tall as its rows (up to 16 of them; more scroll).
  int height = m_table->horizontalHeader()->height() + 2 * m_table->frameWidth() + 2;
  for (int r = 0; r < std::min(m_table->rowCount(), 16); ++r) height += m_table->rowHeight(r);
  m_table->setMinimumHeight(std::max(height, 120));
}

void CompareDialog::cancel() {
  if (m_cancel) m_cancel->store(true);
}

void CompareDialog::showReport() {
  const ComparisonReport& r = m_report;
  m_summary->setText(
      tr("<b>%1</b> · frame %2×%3 · %4×%4 filter%5 · median of %6 runs · FP32 peak %7 GFLOP/s (%8)")
          .arg(QString::fromStdString(r.device).toHtmlEscaped())
          .arg(r.width)
          .arg(r.height)
          .arg(r.filterSize)
          .arg(r.filterName.empty() ? QString()
                                    : QStringLiteral(" “%1”").arg(QString::fromStdString(r.filterName)))
          .arg(r.iterations)
          .arg(r.peakGflops, 0, 'f', 0)
          .arg(QString::fromStdString(r.peakSource).toHtmlEscaped()));
  QString state = r.cancelled ? tr("Cancelled after %1 strategies.").arg(r.rows.size())
                              : tr("%1 rows measured. ★ fastest, ◆ auto's choice.").arg(r.rows.size());
  if (!r.autoActive.name.empty())
    state += tr(" auto chose %1.").arg(QString::fromStdString(r.autoActive.toString()));
  m_state->setText(state);
  m_progress->setValue(m_progress->maximum());

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
    if (!marks.isEmpty()) {
      nameItem->setText(name + QStringLiteral("  ") + marks.join(QString()));
      nameItem->setForeground(row.fastest ? kFastest : kAuto);
      QFont bold = nameItem->font();
      bold.setBold(true);
      nameItem->setFont(bold);
    }
    nameItem->setToolTip(strategyTip(nameItem->text(), tips, row.strategy));
    m_table->setItem(i, Strategy, nameItem);
    auto* variant = new QTableWidgetItem(row.variant.empty() ? QStringLiteral("default")
                                                             : QString::fromStdString(row.variant));
    variant->setToolTip(variant->text());
    m_table->setItem(i, Variant, variant);
    if (row.ok()) {
      m_table->setItem(i, Median, number(row.kernelMedianMs, 3));
      m_table->setItem(i, P95, number(row.kernelP95Ms, 3));
      m_table->setItem(i, Upload, number(row.uploadMs, 3));
      m_table->setItem(i, Download, number(row.downloadMs, 3));
      m_table->setItem(i, Mpix, number(row.mpixPerS, 1));
      m_table->setItem(i, Gflops, number(row.gflops, 1));
      m_table->setItem(i, Peak, number(100 * row.peakFraction, 1));
      auto* diff = number(row.maxDiff, 0);
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
      live->setFixedHeight(fontMetrics().height() + 4);
      live->setObjectName(QStringLiteral("makeLive_") + QString::fromStdString(row.strategy));
      live->setToolTip(row.variant.empty() || row.strategy == kAutoStrategy
                           ? tr("Process the live preview with %1").arg(QString::fromStdString(row.strategy))
                           : tr("Process the live preview with %1 (the engine picks its default variant)")
                                 .arg(QString::fromStdString(row.strategy)));
      const QString strategy = QString::fromStdString(row.strategy);
      connect(live, &QPushButton::clicked, this, [this, strategy] { emit makeLiveRequested(strategy); });
      m_table->setCellWidget(i, Live, live);
    } else {
      m_table->removeCellWidget(i, Live);
      m_table->setItem(i, Live, new QTableWidgetItem);
    }
  }
  fillChart();
  fitTable();
}

void CompareDialog::fillChart() {
  QChart* chart = m_chartView->chart();
  chart->removeAllSeries();
  for (QAbstractAxis* axis : chart->axes()) {
    chart->removeAxis(axis);
    delete axis;
  }
  // One set, one bar per strategy: the fastest is a selected bar (its own colour). Three stacked sets, one
  // per colour, left two empty segments in every bar, and a stack starts at 0: on the log axis each of those
  // is log 0, and Qt Charts printed "Logarithms of zero and negative values are undefined." for every one.
  auto* bars = new QBarSet(tr("kernel median ms"));
  bars->setColor(kBar);
  bars->setBorderColor(kBar);
  bars->setSelectedColor(kFastest);
  QStringList categories;
  std::vector<const ComparisonRow*> ok;
  for (const auto& row : m_report.rows)
    if (row.ok()) ok.push_back(&row);
  double maxMs = 0, minMs = 0;
  // Horizontal bars grow upwards: add the slowest first so the fastest is on top.
  for (auto it = ok.rbegin(); it != ok.rend(); ++it) {
    const ComparisonRow& row = **it;
    QString label = rowLabel(row);
    if (row.active.viaAuto)
      label = QStringLiteral("auto → ") + QString::fromStdString(chosenByAuto(row.active));
    if (row.fastest) label += QStringLiteral(" ★");
    if (row.autoChoice) label += QStringLiteral(" ◆");
    label += QStringLiteral("   %1 ms").arg(row.kernelMedianMs, 0, 'g', 3);
    categories << label;
    bars->append(row.kernelMedianMs);
    if (row.fastest) bars->selectBar(bars->count() - 1);
    maxMs = std::max(maxMs, row.kernelMedianMs);
    minMs = minMs == 0 ? row.kernelMedianMs : std::min(minMs, row.kernelMedianMs);
  }
  // Times often span two or three decades (image vs codegen): a log axis keeps every bar readable.
  const bool log = m_logChart->isChecked() && minMs > 0;
  auto* series = new QHorizontalBarSeries;
  series->append(bars);
  series->setBarWidth(0.72);
  chart->addSeries(series);
  auto* y = new QBarCategoryAxis;
  y->append(categories);
  QAbstractAxis* x;
  if (log) {
    auto* axis = new QLogValueAxis;
    axis->setBase(10);
    axis->setRange(std::pow(10.0, std::floor(std::log10(minMs))),
                   std::pow(10.0, std::ceil(std::log10(maxMs * 1.5))));
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setMinorTickCount(8);
    axis->setMinorGridLineColor(gui::theme::panel());
    x = axis;
  } else {
    auto* axis = new QValueAxis;
    axis->setRange(0, maxMs > 0 ? maxMs * 1.05 : 1);
    axis->applyNiceNumbers();
    axis->setLabelFormat(QStringLiteral("%g"));
    x = axis;
  }
  x->setTitleText(tr("kernel median, ms%1 — shorter is faster; ★ fastest, ◆ auto's choice")
                      .arg(log ? tr(" (log scale)") : QString()));
  QFont small = font();
  small.setPointSizeF(8.5);
  for (QAbstractAxis* axis : std::initializer_list<QAbstractAxis*>{x, y})
    gui::theme::styleAxis(axis, small, gui::theme::softText());
  chart->addAxis(y, Qt::AlignLeft);
  chart->addAxis(x, Qt::AlignBottom);
  series->attachAxis(y);
  series->attachAxis(x);
  // No title here (the summary line above says it; the room goes to the bars): exportChartPng adds one.
  chart->setTitle({});
  // The bars' names are our own text items beside the plot: the category axis truncates a label to "…"
  // unless each bar has about 25 px (Qt Charts takes twice its padding off the bar's height), which a
  // 768-pixel screen cannot give eleven bars under an eleven-row table.
  y->setLabelsVisible(false);
  qDeleteAll(m_barLabels);
  m_barLabels.clear();
  int labelWidth = 0;
  const QFontMetrics metrics(small);
  for (const QString& text : categories) {
    auto* item = new QGraphicsSimpleTextItem(text, chart);
    item->setFont(small);
    item->setBrush(gui::theme::softText());
    m_barLabels.push_back(item);
    labelWidth = std::max(labelWidth, metrics.horizontalAdvance(text));
  }
  chart->setMargins(QMargins(labelWidth + 12, 2, 8, 2));
  placeBarLabels();
  // About 16 px a bar, and with every table row the dialog still fits a 768-pixel screen.
  m_chartView->setMinimumHeight(std::max(160, 16 * static_cast<int>(ok.size()) + 60));
}

void CompareDialog::placeBarLabels() {
  const QRectF plot = m_chartView->chart()->plotArea();
  const int n = static_cast<int>(m_barLabels.size());
  for (int i = 0; i < n; ++i) {  // category i is the i-th bar from the bottom
    QGraphicsSimpleTextItem* item = m_barLabels[static_cast<size_t>(i)];
    const QRectF box = item->boundingRect();
    const double centre = plot.bottom() - (i + 0.5) * plot.height() / n;
    item->setPos(plot.left() - 6 - box.width(), centre - box.height() / 2);
  }
}

bool CompareDialog::exportMarkdown(const QString& path) const {
  return writeText(path, convolab::lab::comparisonToMarkdown(m_report));
}

bool CompareDialog::exportCsv(const QString& path) const {
  return writeText(path, convolab::lab::comparisonToCsv(m_report));
}

bool CompareDialog::exportChartPng(const QString& path) const {
  // The exported picture says what it shows: device, frame and filter size as its title.
  QChart* chart = m_chartView->chart();
  QFont small = font();
  small.setPointSizeF(8.5);
  chart->setTitleFont(small);
  chart->setTitleBrush(gui::theme::text());
  chart->setTitle(tr("%1 · %2×%3 · %4×%4 filter")
                      .arg(QString::fromStdString(m_report.device))
                      .arg(m_report.width)
                      .arg(m_report.height)
                      .arg(m_report.filterSize));
  const bool ok = m_chartView->grab().save(path, "PNG");
  chart->setTitle({});
  return ok;
}

void CompareDialog::exportAs(const QString& kind) {
  const QString filter = kind == QLatin1String("md")    ? tr("Markdown (*.md)")
                         : kind == QLatin1String("csv") ? tr("CSV (*.csv)")
                                                        : tr("PNG image (*.png)");
  QString path = QFileDialog::getSaveFileName(this, tr("Export comparison"),
                                              QStringLiteral("strategy-comparison.") + kind, filter);
  if (path.isEmpty()) return;
  const bool ok = kind == QLatin1String("md")    ? exportMarkdown(path)
                  : kind == QLatin1String("csv") ? exportCsv(path)
                                                 : exportChartPng(path);
  m_state->setText(ok ? tr("Wrote %1").arg(path) : tr("Could not write %1").arg(path));
}

}  // namespace convolab::lab
