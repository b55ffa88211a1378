// SPDX-License-Identifier: MIT
// CompareDialog: controls, progress, the run off the GUI thread, the summary and the exports; the results
// table is ComparisonTable (compare_table.*), the bar chart ComparisonChart (compare_chart.*).
#include "compare_dialog.hpp"

#include <QChartView>
#include <QCheckBox>
#include <QFileDialog>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScreen>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <optional>

#include "background_task.hpp"
#include "compare_chain.hpp"
#include "compare_chart.hpp"
#include "compare_table.hpp"
#include "convolab/context.hpp"
#include "window/theme.hpp"

namespace convolab::lab {
namespace {

struct Outcome {
  ComparisonReport report;
  std::shared_ptr<Context> context;
  QString error;
};

bool writeText(const QString& path, const std::string& text) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return false;
  f.write(text.data(), static_cast<qint64>(text.size()));
  return f.commit();
}

}  // namespace

CompareDialog::CompareDialog(LabInputsProvider inputs, QWidget* parent)
    : QDialog(parent), m_inputs(std::move(inputs)) {
  setObjectName(QStringLiteral("compareDialog"));
  setWindowTitle(tr("Compare Strategies"));
  if (const QScreen* screen = parent ? parent->screen() : QGuiApplication::primaryScreen())
    resize(defaultSize(screen->availableGeometry()));
  else
    resize(defaultSize(QRect(0, 0, 1366, 768)));

  QLayout* controls = createControls();
  m_summary = new QLabel(this);
  m_summary->setWordWrap(true);
  m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_verdict = new QLabel(this);
  m_verdict->setObjectName(QStringLiteral("compareVerdict"));
  m_verdict->setWordWrap(true);
  m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_verdict->hide();
  m_state = new QLabel(this);
  m_state->setWordWrap(true);  // never wider than the room beside the export buttons
  m_state->setStyleSheet(gui::theme::textStyle(gui::theme::dimText()));
  QWidget* results = createResults();

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(m_summary);
  layout->addWidget(m_verdict);
  layout->addWidget(results, 1);
  layout->addLayout(createButtons());
  setRunning(false);
  m_state->setText(tr("Runs every strategy on the current frame, filter and device, off the GUI thread."));
}

QLayout* CompareDialog::createControls() {
  m_iterations = new QSpinBox(this);
  m_iterations->setRange(1, 500);
  m_iterations->setValue(10);
  m_iterations->setToolTip(tr("Timed runs per strategy; the table shows their median and 95th percentile."));
  m_variants = new QCheckBox(tr("Every tuning variant"), this);
  m_variants->setToolTip(
      tr("Also time each launch-shape variant (e.g. tiled 16x8, 32x8), not only the default (one filter)."));
  m_auto = new QCheckBox(tr("Include auto"), this);
  m_auto->setChecked(true);
  m_auto->setToolTip(tr("Also run auto and mark the strategy it chooses for this device, size and filter."));
  m_logChart = new QCheckBox(tr("Log time axis"), this);
  m_logChart->setChecked(true);
  m_logChart->setToolTip(tr("Chart times on a logarithmic axis (strategies often differ by 100x)"));
  connect(m_logChart, &QCheckBox::toggled, this, [this] {
    if (!m_report.rows.empty()) m_chart->fill(m_report, m_logChart->isChecked(), font());
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
  connect(m_run, &QPushButton::clicked, this, [this] { start(); });
  connect(m_stop, &QPushButton::clicked, this, &CompareDialog::cancel);

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
  return controls;
}

QWidget* CompareDialog::createResults() {
  m_table = std::make_unique<ComparisonTable>(this);
  m_chart = std::make_unique<ComparisonChart>(this);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(m_table->widget());
  splitter->addWidget(m_chart->view());
  splitter->setChildrenCollapsible(false);
  // The table as tall as its rows (ComparisonTable::fit), the chart the rest.
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  return splitter;
}

QLayout* CompareDialog::createButtons() {
  m_exportMd = new QPushButton(tr("Export Markdown…"), this);
  m_exportCsv = new QPushButton(tr("Export CSV…"), this);
  m_exportPng = new QPushButton(tr("Export Chart PNG…"), this);
  auto* close = new QPushButton(tr("Close"), this);
  connect(close, &QPushButton::clicked, this, &QDialog::close);
  connect(m_exportMd, &QPushButton::clicked, this, [this] { exportAs(QStringLiteral("md")); });
  connect(m_exportCsv, &QPushButton::clicked, this, [this] { exportAs(QStringLiteral("csv")); });
  connect(m_exportPng, &QPushButton::clicked, this, [this] { exportAs(QStringLiteral("png")); });
  auto* bottom = new QHBoxLayout;
  bottom->addWidget(m_state, 1);
  bottom->addWidget(m_exportMd);
  bottom->addWidget(m_exportCsv);
  bottom->addWidget(m_exportPng);
  bottom->addWidget(close);
  return bottom;
}

QTableWidget* CompareDialog::table() const {
  return m_table->widget();
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
          const ComparisonProgress progress = [cancel, self](int done, int total, const std::string& label) {
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
          };
          if (comparesAsChain(in.chain)) {  // fused against step by step, and the ★ rule against what runs
            out.report = compareChainStrategies(*context, in.chain, in.frame->view(), options, progress);
            markWhatRunsNow(out.report, {in.liveStrategy.name, in.liveChainFused});
          } else {  // one filter: the chain's one switched-on filter step, else the editor's
            const std::optional<FilterSet> single = in.chain.singleFilter();
            out.report = compareStrategies(*context, single ? *single : in.filter, in.frame->view(), options,
                                           progress);
          }
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
  if (m_table) m_table->fit();
}

void CompareDialog::cancel() {
  if (m_cancel) m_cancel->store(true);
}

QString CompareDialog::summaryText() const {
  const ComparisonReport& r = m_report;
  const QString name =
      r.filterName.empty() ? QString() : QStringLiteral(" “%1”").arg(QString::fromStdString(r.filterName));
  QString what = tr("%1×%1 filter%2").arg(r.filterSize).arg(name);
  if (!r.chainSteps.empty()) {
    QStringList steps;
    for (const std::string& step : r.chainSteps) steps << QString::fromStdString(step).toHtmlEscaped();
    what = tr("chain%1 of %2 steps: %3")
               .arg(name)
               .arg(r.chainSteps.size())
               .arg(steps.join(QStringLiteral(", ")));
  }
  // A chain's steps take the room of the peak's estimate, which its tooltip then says (showReport).
  const QString how = r.chainSteps.empty()
                          ? QStringLiteral(" (%1)").arg(QString::fromStdString(r.peakSource).toHtmlEscaped())
                          : QString();
  return tr("<b>%1</b> · frame %2×%3 · %4 · median of %5 runs · FP32 peak %6 GFLOP/s%7")
      .arg(QString::fromStdString(r.device).toHtmlEscaped())
      .arg(r.width)
      .arg(r.height)
      .arg(what)
      .arg(r.iterations)
      .arg(r.peakGflops, 0, 'f', 0)
      .arg(how);
}

void CompareDialog::showReport() {
  const ComparisonReport& r = m_report;
  m_summary->setText(summaryText());
  m_summary->setToolTip(QString::fromStdString(r.peakSource));
  const bool chain = !r.chainSteps.empty();
  m_verdict->setVisible(chain);
  m_verdict->setText(QStringLiteral("<b>%1</b>").arg(QString::fromStdString(r.verdict).toHtmlEscaped()));
  QString state =
      r.cancelled ? tr("Cancelled after %1 strategies.").arg(r.rows.size())
      : chain
          ? tr("%1 rows. ★ fastest, ● runs now; hover a step-by-step time for each step.").arg(r.rows.size())
          : tr("%1 rows measured. ★ fastest, ◆ auto's choice.").arg(r.rows.size());
  if (!r.autoActive.name.empty())
    state += tr(" auto chose %1.").arg(QString::fromStdString(r.autoActive.toString()));
  if (chain && r.declaredFilterSize != r.filterSize)
    state +=
        tr(" Filter steps ran trimmed to their support (zero rings cut off, the same output), as auto "
           "runs them.");
  else if (r.declaredFilterSize != r.filterSize)
    state += tr(" Every row ran the %1×%1 filter trimmed to its support, %2×%2 (zero rings cut off, the same "
                "output), as auto runs it.")
                 .arg(r.declaredFilterSize)
                 .arg(r.filterSize);
  m_state->setText(state);
  m_progress->setValue(m_progress->maximum());

  m_table->fill(r, [this](const QString& strategy, const QString& chainMode) {
    emit makeLiveRequested(strategy, chainMode);
  });
  m_chart->fill(r, m_logChart->isChecked(), font());
  m_table->fit();
}

bool CompareDialog::exportMarkdown(const QString& path) const {
  return writeText(path, convolab::lab::comparisonToMarkdown(m_report));
}

bool CompareDialog::exportCsv(const QString& path) const {
  return writeText(path, convolab::lab::comparisonToCsv(m_report));
}

bool CompareDialog::exportChartPng(const QString& path) const {
  // The exported picture says what it shows: device, frame and filter size as its title.
  return m_chart->savePng(
      path,
      tr("%1 · %2×%3 · %4")
          .arg(QString::fromStdString(m_report.device))
          .arg(m_report.width)
          .arg(m_report.height)
          .arg(m_report.chainSteps.empty() ? tr("%1×%1 filter").arg(m_report.filterSize)
                                           : tr("chain of %1 steps").arg(m_report.chainSteps.size())),
      font());
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