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
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLogValueAxis>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

#include "background_task.hpp"
#include "convolab/context.hpp"
#include "convolab/strategy_id.hpp"
#include "theme.hpp"

namespace convolab::lab {
namespace {

const QColor kBar(0x3d, 0xa9, 0xfc);
const QColor kFastest(0x4c, 0xc3, 0x6a);
const QColor kAuto(0xf5, 0xa6, 0x23);

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
  resize(1100, 760);

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
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->horizontalHeader()->setSectionResizeMode(Status, QHeaderView::Stretch);

  auto* chart = new QChart;
  gui::theme::styleChart(chart);
  chart->setTitleBrush(gui::theme::text());
  chart->legend()->hide();
  m_chartView = new QChartView(chart, this);
  m_chartView->setRenderHint(QPainter::Antialiasing);
  m_chartView->setMinimumHeight(220);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(m_table);
  splitter->addWidget(m_chartView);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);

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
      nameItem->setToolTip(tips.join(QStringLiteral(", ")));
      nameItem->setForeground(row.fastest ? kFastest : kAuto);
      QFont bold = nameItem->font();
      bold.setBold(true);
      nameItem->setFont(bold);
    }
    m_table->setItem(i, Strategy, nameItem);
    m_table->setItem(i, Variant,
                     new QTableWidgetItem(row.variant.empty() ? QStringLiteral("default")
                                                              : QString::fromStdString(row.variant)));
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
      status->setToolTip(QString::fromStdString(row.reason));
      m_table->setItem(i, Status, status);
    }
    if (row.ok()) {
      auto* live = new QPushButton(tr("Make live"), m_table);
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
}

void CompareDialog::fillChart() {
  QChart* chart = m_chartView->chart();
  chart->removeAllSeries();
  for (QAbstractAxis* axis : chart->axes()) {
    chart->removeAxis(axis);
    delete axis;
  }
  // Three stacked sets so the fastest and auto's choice get their own colours; each bar is in one set.
  auto* plain = new QBarSet(tr("kernel median ms"));
  auto* fastest = new QBarSet(tr("fastest"));
  auto* chosen = new QBarSet(tr("auto"));
  for (auto [set, colour] :
       {std::pair{plain, kBar}, std::pair{fastest, kFastest}, std::pair{chosen, kAuto}}) {
    set->setColor(colour);
    set->setBorderColor(colour);
  }
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
    plain->append(row.fastest || row.autoChoice ? 0.0 : row.kernelMedianMs);
    fastest->append(row.fastest ? row.kernelMedianMs : 0.0);
    chosen->append(!row.fastest && row.autoChoice ? row.kernelMedianMs : 0.0);
    maxMs = std::max(maxMs, row.kernelMedianMs);
    minMs = minMs == 0 ? row.kernelMedianMs : std::min(minMs, row.kernelMedianMs);
  }
  auto* series = new QHorizontalStackedBarSeries;
  series->append({plain, fastest, chosen});
  series->setBarWidth(0.72);
  chart->addSeries(series);
  auto* y = new QBarCategoryAxis;
  y->append(categories);
  // Times often span two or three decades (image vs codegen): a log axis keeps every bar readable.
  const bool log = m_logChart->isChecked() && minMs > 0;
  QAbstractAxis* x;
  if (log) {
    auto* axis = new QLogValueAxis;
    axis->setBase(10);
    axis->setRange(std::pow(10.0, std::floor(std::log10(minMs)) - 0),
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
  chart->setTitle(tr("%1 · %2×%3 · %4×%4 filter")
                      .arg(QString::fromStdString(m_report.device))
                      .arg(m_report.width)
                      .arg(m_report.height)
                      .arg(m_report.filterSize));
  m_chartView->setMinimumHeight(std::max(220, 30 * static_cast<int>(ok.size()) + 100));
}

bool CompareDialog::exportMarkdown(const QString& path) const {
  return writeText(path, convolab::lab::comparisonToMarkdown(m_report));
}

bool CompareDialog::exportCsv(const QString& path) const {
  return writeText(path, convolab::lab::comparisonToCsv(m_report));
}

bool CompareDialog::exportChartPng(const QString& path) const {
  return m_chartView->grab().save(path, "PNG");
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
