// SPDX-License-Identifier: MIT
// The statistics panel: OBS-style colour coding (amber/red) against the source rate and frame budget.
#include "stats/stats_panel.hpp"

#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "stats/stats_chart.hpp"
#include "stats/stats_report.hpp"
#include "window/theme.hpp"

namespace convolab::gui {

namespace {

// "—" until there is a figure: never "0.00" or "— ms" for what was not measured yet.
const QString kNone = QStringLiteral("—");

QString fps(double v) {
  return v > 0 ? QString::asprintf("%6.1f fps", v) : kNone;
}
// OBS-like thresholds: a rate below 95 % of the source is amber, below 80 % red.
QColor rateColor(double rate, double source) {
  if (source <= 0 || rate <= 0) return theme::text();
  if (rate < 0.8 * source) return theme::danger();
  if (rate < 0.95 * source) return theme::warning();
  return theme::ok();
}

void setColor(QLabel* label, const QColor& color) {
  label->setStyleSheet(QStringLiteral("color:%1;").arg(color.name()));
}

/// A group box titled `title` that holds `content` alone, `margins` inside it.
QGroupBox* boxAround(QWidget* content, const QString& title, QWidget* parent, const QMargins& margins) {
  auto* box = new QGroupBox(title, parent);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(margins);
  layout->addWidget(content);
  return box;
}

}  // namespace

StatsPanel::StatsPanel(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("statsBody"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(10, 8, 10, 10);
  layout->setSpacing(10);
  layout->addWidget(makeThroughputBox());
  layout->addWidget(makeStagesBox());
  layout->addWidget(makeEngineBox());
  layout->addWidget(makeChartBox(), 1);
  layout->addLayout(makeButtons());
}

/// Source, processed and displayed rates, drops, latencies, and the outputs' figures.
QGroupBox* StatsPanel::makeThroughputBox() {
  auto* rates = new QGroupBox(tr("Throughput"), this);
  auto* grid = new QGridLayout(rates);
  grid->setContentsMargins(10, 12, 10, 8);
  grid->setVerticalSpacing(4);
  grid->setHorizontalSpacing(12);
  m_source =
      addRow(grid, 0, tr("Source"),
             tr("Frames per second the source delivered over the last second (nominal rate in brackets). A "
                "still image is one picture, processed once per change of the filter or the engine."),
             QStringLiteral("source"));
  m_processed =
      addRow(grid, 1, tr("Processed"),
             tr("Frames per second through the OpenCL engine. Amber below 95 % of the source rate, red "
                "below 80 %: frames are being dropped."),
             QStringLiteral("processed"));
  m_displayed = addRow(grid, 2, tr("Displayed"),
                       tr("Frames per second that reached the screen. Lower than processed when the preview "
                          "repaints less often (e.g. a window behind others)."),
                       QStringLiteral("displayed"));
  m_dropped =
      addRow(grid, 3, tr("Dropped"),
             tr("Source frames replaced by a newer one before processing could take them (newest wins, "
                "so the preview never lags), out of all frames delivered. Counted from when processing is "
                "ready: not while auto measures or a kernel builds (warming up). Amber above 5 %, red above "
                "20 % of the count shown; Reset starts it afresh. A still image drops nothing."),
             QStringLiteral("dropped"));
  m_latency = addRow(grid, 4, tr("Latency"),
                     tr("Capture to display: from the moment the source delivered a frame to the moment the "
                        "preview painted its result (mean and 95th percentile over the last second). The "
                        "screen's compositor adds up to one refresh."),
                     QStringLiteral("latency"));
  m_editLatency =
      addRow(grid, 5, tr("Edit → screen"),
             tr("From the moment an edit is committed (a filter change published to the processing thread, "
                "bypass, or a strategy change) to the moment the preview first paints a frame computed with "
                "it: the newest edit's time, and the longest since Reset. Frames made with an older filter "
                "(stale), unfiltered frames and failed frames do not count; an edit overtaken by a newer one "
                "reaches the screen with the newer one's first frame."),
             QStringLiteral("edit_to_screen"));
  addRow(grid, 6, tr("Display"),
         tr("The preview's upload and paint of each new frame on the GUI thread (mean and 95th percentile "
            "over the last second). Engine ▸ Preview names the back-end that paints."),
         QStringLiteral("display"));
  addRow(grid, 7, tr("Virtual camera"),
         tr("Processing ▸ Virtual Camera: consumers reading it, frames sent per second, and frames a slow "
            "consumer missed (dropped for it, never holding up the preview), since it was turned on."),
         QStringLiteral("virtual_camera"));
  return rates;
}

/// The table of device time per stage, with the total and the frame budget below.
QGroupBox* StatsPanel::makeStagesBox() {
  m_stages = new StageTable(this);
  QGroupBox* box = boxAround(m_stages, tr("Device time per frame (ms)"), this, QMargins(6, 12, 6, 6));
  box->setToolTip(
      tr("From OpenCL profiling events: upload of the frame, each kernel by name, download of "
         "the result. Current = newest frame; mean and p95 over the last second."));
  return box;
}

/// The device, the requested and the running strategy, and what paints the preview.
QGroupBox* StatsPanel::makeEngineBox() {
  auto* engine = new QGroupBox(tr("Engine"), this);
  auto* eg = new QGridLayout(engine);
  eg->setContentsMargins(10, 12, 10, 8);
  eg->setVerticalSpacing(4);
  m_device = addRow(eg, 0, tr("Device"), tr("The OpenCL device in use (Processing ▸ Device to change it)"),
                    QStringLiteral("device"));
  m_strategy =
      addRow(eg, 1, tr("Strategy"),
             tr("Requested strategy → the one that ran the newest frame (they differ after a fallback, or "
                "for auto). Processing ▸ Strategy to change it."),
             QStringLiteral("strategy"));
  QLabel* preview = addRow(eg, 2, tr("Preview"),
                           tr("What paints the preview: OpenGL, or the raster (QPainter) path and why. The "
                              "setting view/renderer or CONVOLAB_PREVIEW (auto, opengl, raster) chooses."),
                           QStringLiteral("preview"));
  for (QLabel* l : {m_device, m_strategy, preview}) {
    l->setWordWrap(true);
    l->setFont(font());
  }
  return engine;
}

QGroupBox* StatsPanel::makeChartBox() {
  m_chart = new StatsChart(this);
  return boxAround(m_chart, tr("Stage times, last 10 s"), this, QMargins(2, 10, 2, 2));
}

QHBoxLayout* StatsPanel::makeButtons() {
  auto* buttons = new QHBoxLayout;
  buttons->addStretch(1);
  auto* reset = new QPushButton(tr("Reset"), this);
  reset->setToolTip(tr("Start the counters, averages and chart afresh (Ctrl+Shift+R)"));
  auto* copy = new QPushButton(tr("Copy as text"), this);
  copy->setToolTip(tr("Copy these figures as a plain-text table"));
  buttons->addWidget(reset);
  buttons->addWidget(copy);
  connect(reset, &QPushButton::clicked, this, &StatsPanel::resetRequested);
  connect(copy, &QPushButton::clicked, this, &StatsPanel::copyRequested);
  return buttons;
}

QLabel* StatsPanel::addRow(QGridLayout* grid, int row, const QString& name, const QString& tooltip,
                           const QString& key) {
  auto* label = new QLabel(name, this);
  label->setStyleSheet(theme::textStyle(theme::dimText()));
  label->setToolTip(tooltip);
  auto* value = new QLabel(QStringLiteral("—"), this);
  value->setObjectName(QStringLiteral("stat_") + key);
  value->setFont(theme::monoFont());
  value->setToolTip(tooltip);
  value->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // Long values ("warming up: measuring strategies 3/10…") wrap inside the dock instead of widening the
  // panel past it (a horizontal scroll bar that cut off the table's Mean and p95 columns).
  value->setWordWrap(true);
  value->setMinimumWidth(0);
  grid->addWidget(label, row, 0, Qt::AlignTop);
  grid->addWidget(value, row, 1);
  grid->setColumnStretch(1, 1);
  m_values.insert(key, value);
  return value;
}

void StatsPanel::setEngine(const QString& device, const StrategyId& requestedStrategy) {
  m_deviceName = device;
  m_requested = requestedStrategy;
  m_device->setText(device);
  m_strategy->setText(QString::fromStdString(requestedStrategy.toString()));
}

void StatsPanel::setProcessingState(const QString& preparing, bool stillIdle) {
  m_preparing = preparing;
  m_stillIdle = stillIdle;
}

void StatsPanel::setStillSource(bool still) {
  m_stillSource = still;
}

void StatsPanel::showEditLatency(const EditLatencySummary& edits) {
  m_edits = edits;
  m_editLatency->setText(
      edits.samples > 0 ? QString::asprintf("%6.1f ms  (max %.1f)", edits.lastMs, edits.maxMs) : kNone);
}

void StatsPanel::clearChart() {
  m_chart->clear();
}

void StatsPanel::showStats(const StatsSnapshot& s) {
  // A still image (the source, or an idle one between changes) has no rate to compare with: its repeats of
  // one picture are not frames it delivers (issue 33.6: "Source 30.3 fps" while a filter was pending).
  const bool still = m_stillIdle || m_stillSource;
  showRates(s, still);
  showDropped(s, still);
  showTimes(s);
  showOutputs(s);
  showStrategy(s);
  m_stages->fill(s, still, *m_chart);
  m_text = QString::fromStdString(statsText(s, m_deviceName.toStdString(), m_requested.toString(), still));
  if (m_edits.samples > 0)
    m_text += QString::asprintf("edit to screen %7.1f ms last, %.1f ms max\n", m_edits.lastMs, m_edits.maxMs);
}

void StatsPanel::showRates(const StatsSnapshot& s, bool still) {
  const double source = still ? 0.0 : s.sourceFps > 0 ? s.sourceFps : s.nominalFps;
  if (still) {
    m_source->setText(tr("still image"));
  } else {
    m_source->setText(fps(s.sourceFps) +
                      (s.nominalFps > 0 ? QString::asprintf("  (%.4g)", s.nominalFps) : QString()));
  }
  if (still && s.processedFps <= 0) {
    // A still image is processed once per change: no rate to compare with the source's.
    m_processed->setText(tr("still image, idle"));
    setColor(m_processed, theme::text());
  } else {
    m_processed->setText(fps(s.processedFps) + (s.bypassed ? tr("  bypass") : QString()));
    setColor(m_processed, rateColor(s.processedFps, source));
  }
  m_displayed->setText(fps(s.displayedFps));
  setColor(m_displayed, rateColor(s.displayedFps, source));
}

void StatsPanel::showDropped(const StatsSnapshot& s, bool still) {
  const double pct =
      s.delivered ? 100.0 * static_cast<double>(s.dropped) / static_cast<double>(s.delivered) : 0.0;
  if (!m_preparing.isEmpty()) {
    m_dropped->setText(tr("— (warming up: %1)").arg(m_preparing));
    setColor(m_dropped, theme::dimText());
  } else if (still) {
    // The image source's repeats of one picture (the "581" a still image used to show after 20 s, "0 / 5141"
    // while a filter was pending) are no frames that could be dropped: there is nothing newer to drop them
    // for.
    m_dropped->setText(tr("— (still image)"));
    setColor(m_dropped, theme::dimText());
  } else if (s.delivered == 0) {
    m_dropped->setText(kNone);
    setColor(m_dropped, theme::text());
  } else {
    m_dropped->setText(QStringLiteral("%1 / %2 (%3 %)").arg(s.dropped).arg(s.delivered).arg(pct, 0, 'f', 1));
    // Coloured by the share it shows (issue 33.6: it was coloured by the last second only, so a red "24.3 %"
    // read as fine). Drops while warming up are not counted, and Reset starts the count afresh.
    setColor(m_dropped, pct > 20 ? theme::danger() : pct > 5 ? theme::warning() : theme::text());
  }
}

/// Capture → screen latency and the preview's display time.
void StatsPanel::showTimes(const StatsSnapshot& s) {
  // A still (or a paused source) between changes keeps the last pass's figures, marked as such; its latency
  // is change → screen (the worker stamps a repeated pass with the change's time).
  const QString lastPass = s.lastPass ? tr("  last pass") : QString();
  m_latency->setText(s.latency.samples > 0 ? (s.lastPass ? QString::asprintf("%6.1f ms", s.latency.current)
                                                         : QString::asprintf("%6.1f ms  (p95 %.1f)",
                                                                             s.latency.mean, s.latency.p95)) +
                                                 lastPass
                                           : kNone);
  m_values.value(QStringLiteral("display"))
      ->setText(s.display.samples > 0
                    ? QString::asprintf("%6.2f ms  (p95 %.2f)", s.display.mean, s.display.p95)
                    : kNone);
}

/// What paints the preview, and the virtual camera's figures.
void StatsPanel::showOutputs(const StatsSnapshot& s) {
  m_values.value(QStringLiteral("preview"))->setText(QString::fromStdString(s.displayPath));
  QLabel* camera = m_values.value(QStringLiteral("virtual_camera"));
  if (const output::SinkFigures* v = output::findFigures(s.sinks, "virtual_camera")) {
    camera->setText(QString::fromStdString(v->summary));
    camera->setToolTip(QString::fromStdString(v->detail));
    setColor(camera, theme::text());
  } else {
    camera->setText(tr("off"));
    setColor(camera, theme::dimText());
  }
}

void StatsPanel::showStrategy(const StatsSnapshot& s) {
  // The active strategy as people read it: StrategyId::describe, with its note ("provisional, …").
  const QString active = QString::fromStdString(s.strategyId.describe());
  const QString requested = QString::fromStdString(m_requested.toString());
  if (!s.strategy.empty() && (s.strategyId != m_requested || !s.strategyId.note.empty()))
    m_strategy->setText(requested + QStringLiteral(" → ") + active);
  else
    m_strategy->setText(requested);
}

void StatsPanel::showHistory(const std::deque<StatsSample>& history, double now, double budgetMs) {
  // A still image has no frame budget (nothing arrives at a rate): no budget line, as the table says "—".
  m_chart->updateSeries(history, now, m_stillIdle || m_stillSource ? 0.0 : budgetMs);
}

}  // namespace convolab::gui
