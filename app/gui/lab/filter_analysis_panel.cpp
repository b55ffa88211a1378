// SPDX-License-Identifier: MIT
// FilterAnalysisPanel: recomputes facts and spectra on edits and lays them out for a narrow dock.
#include "filter_analysis_panel.hpp"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

#include "response_view.hpp"
#include "window/theme.hpp"

namespace convolab::lab {
namespace {

QString number(double v) {
  if (std::abs(v) < 5e-13) v = 0;
  return QString::number(v, 'g', 4);
}

QString vectorText(const std::vector<double>& v) {
  QStringList parts;
  for (double x : v) parts << number(x);
  return QStringLiteral("[") + parts.join(QStringLiteral(", ")) + QStringLiteral("]");
}

QLabel* makeCrossoverLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setObjectName(QStringLiteral("analysisFftCrossover"));
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label->setToolTip(QObject::tr(
      "From auto's measurements on this device (the fastest strategy it found for each filter "
      "structure), not a rule of thumb: FFT's cost hardly grows with K, a direct convolution's grows "
      "with K²."));

  return label;
}

}  // namespace

FilterAnalysisPanel::FilterAnalysisPanel(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("filterAnalysisPanel"));
  m_channelBox = new QComboBox(this);
  m_channelBox->addItems({tr("Channel R"), tr("Channel G"), tr("Channel B")});
  m_logBox = new QCheckBox(tr("Log scale (dB)"), this);
  m_identical = new QLabel(this);
  m_identical->setStyleSheet(gui::theme::textStyle(gui::theme::dimText()));
  auto* top = new QHBoxLayout;
  top->addWidget(m_channelBox);
  top->addWidget(m_identical, 1);
  top->addWidget(m_logBox);

  m_factsLabel = new QLabel(this);
  m_factsLabel->setObjectName(QStringLiteral("analysisFacts"));
  m_factsLabel->setWordWrap(true);
  m_factsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_factsLabel->setAlignment(Qt::AlignTop | Qt::AlignLeft);

  m_crossoverLabel = makeCrossoverLabel(this);
  m_view = new ResponseView(this);
  m_view->setToolTip(
      tr("|H(u,v)|: the gain of the filter for each spatial frequency, the K×K matrix zero-padded "
         "to %1×%1. The centre is DC (flat areas); the edges are the finest detail (½ cycle per "
         "pixel). A low-pass is bright in the middle, a high-pass at the edges, a directional "
         "filter along one axis.")
          .arg(kResponseSize));

  auto* chart = new QChart;
  gui::theme::styleChart(chart);
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->legend()->hide();
  m_cut = new QLineSeries;
  m_cut->setPen(QPen(gui::theme::accent(), 1.8));
  chart->addSeries(m_cut);
  m_cutX = new QValueAxis;
  m_cutX->setRange(-0.5, 0.5);
  m_cutX->setTickCount(5);
  m_cutX->setLabelFormat(QStringLiteral("%.2f"));
  m_cutX->setTitleText(tr("u, cycles per pixel (cut at v = 0)"));
  m_cutY = new QValueAxis;
  m_cutY->setLabelFormat(QStringLiteral("%.2f"));
  m_cutY->setTitleText(tr("|H|"));
  QFont small = font();
  small.setPointSizeF(8);
  for (QValueAxis* axis : {m_cutX, m_cutY}) gui::theme::styleAxis(axis, small);
  chart->addAxis(m_cutX, Qt::AlignBottom);
  chart->addAxis(m_cutY, Qt::AlignLeft);
  m_cut->attachAxis(m_cutX);
  m_cut->attachAxis(m_cutY);
  m_cutView = new QChartView(chart, this);
  m_cutView->setRenderHint(QPainter::Antialiasing);
  m_cutView->setMinimumHeight(170);

  auto* heading = [this](const QString& text) {
    auto* l = new QLabel(text, this);
    l->setStyleSheet(QStringLiteral("font-weight: 600; margin-top: 6px;"));
    return l;
  }(tr("Frequency response |H(u,v)|"));
  auto* crossoverHeading = new QLabel(tr("Where FFT starts to win"), this);
  crossoverHeading->setStyleSheet(QStringLiteral("font-weight: 600; margin-top: 6px;"));

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->addLayout(top);
  layout->addWidget(m_factsLabel);
  layout->addWidget(crossoverHeading);
  layout->addWidget(m_crossoverLabel);
  layout->addWidget(heading);
  layout->addWidget(m_view, 1);
  layout->addWidget(m_cutView, 1);

  m_timer.setSingleShot(true);
  m_timer.setInterval(60);
  connect(&m_timer, &QTimer::timeout, this, &FilterAnalysisPanel::refresh);
  connect(m_channelBox, &QComboBox::currentIndexChanged, this, &FilterAnalysisPanel::setChannel);
  connect(m_logBox, &QCheckBox::toggled, this, &FilterAnalysisPanel::setLogScale);
  refresh();
}

void FilterAnalysisPanel::setFilter(const FilterSet& filter) {
  m_filter = filter;
  m_timer.start();
}

void FilterAnalysisPanel::setDevice(const QString& deviceName) {
  m_device = deviceName;
  refresh();
}

QString FilterAnalysisPanel::crossoverText() const {
  return fftCrossoverText(m_crossover, m_device, m_filter.size());
}

void FilterAnalysisPanel::refresh() {
  m_timer.stop();
  m_crossover = storedFftCrossover(m_device.toStdString());  // auto may have measured since
  for (int c = 0; c < 3; ++c) {
    m_facts[static_cast<size_t>(c)] = channelFacts(m_filter, c);
    m_response[static_cast<size_t>(c)] = frequencyResponse(m_filter.channel(c), kResponseSize);
  }
  display();
}

void FilterAnalysisPanel::setChannel(int channel) {
  m_channel = std::clamp(channel, 0, 2);
  if (m_channelBox->currentIndex() != m_channel) m_channelBox->setCurrentIndex(m_channel);
  display();
}

void FilterAnalysisPanel::setLogScale(bool on) {
  m_log = on;
  if (m_logBox->isChecked() != on) m_logBox->setChecked(on);
  display();
}

QString FilterAnalysisPanel::factsText() const {
  const auto& f = m_facts[static_cast<size_t>(m_channel)];
  const ChannelFilter& ch = m_filter.channel(m_channel);
  QStringList rows;
  auto row = [&rows](const QString& key, const QString& value) {
    rows << QStringLiteral("<tr><td style='%1 padding-right:10px;'>%2</td><td>%3</td></tr>")
                .arg(gui::theme::textStyle(gui::theme::dimText()), key, value);
  };
  row(tr("Sum"), tr("%1 (÷ divisor %2)").arg(number(f.sum), number(ch.divisor)));
  QString gain = number(f.dcGain);
  if (std::abs(f.dcGain - 1) < 1e-9)
    gain += tr(" — keeps brightness");
  else if (std::abs(f.dcGain) < 1e-9)
    gain += tr(" — flat areas become the offset (%1)").arg(number(ch.offset));
  row(tr("DC gain"), gain);
  row(tr("Rank"),
      f.separable ? tr("%1 — <b>separable</b>").arg(f.rank) : tr("%1 — not separable").arg(f.rank));
  if (f.separable && !f.row.empty()) {
    QString scale = QStringLiteral(" × ") + number(f.scale);
    if (std::abs(f.scale - 1) < 1e-9)
      scale.clear();
    else if (std::abs(f.scale) < 1 && std::abs(1 / f.scale - std::round(1 / f.scale)) < 1e-6)
      scale = QStringLiteral(" × 1/%1").arg(number(std::round(1 / f.scale)));
    QString factors = tr("column %1 · row %2%3").arg(vectorText(f.column), vectorText(f.row), scale);
    if (static_cast<int>(f.column.size()) < ch.size || static_cast<int>(f.row.size()) < ch.size)
      factors +=
          tr(" (the %1×%2 support of the %3×%3 matrix)").arg(f.row.size()).arg(f.column.size()).arg(ch.size);
    row(tr("Factors"), factors);
  }
  QStringList sym;
  if (f.symmetric) sym << tr("symmetric (180°): zero-phase");
  if (f.antisymmetric) sym << tr("antisymmetric: a derivative");
  if (f.mirrorX) sym << tr("mirror left-right");
  if (f.mirrorY) sym << tr("mirror top-bottom");
  row(tr("Symmetry"), sym.isEmpty() ? tr("none") : sym.join(QStringLiteral(", ")));
  row(tr("Zero taps"), tr("%1 of %2").arg(f.zeroTaps).arg(f.taps));
  return QStringLiteral("<table>") + rows.join(QString()) + QStringLiteral("</table>");
}

void FilterAnalysisPanel::display() {
  m_identical->setText(m_filter.channelsIdentical() ? tr("R = G = B") : tr("channels differ"));
  m_factsLabel->setText(factsText());
  m_crossoverLabel->setText(crossoverText());
  const auto& mag = m_response[static_cast<size_t>(m_channel)];
  if (mag.empty()) return;
  m_view->setResponse(mag, kResponseSize, m_log);
  QList<QPointF> points;
  const int n = kResponseSize;
  double top = 0, bottom = 0;
  for (int u = 0; u < n; ++u) {
    double v = mag[static_cast<size_t>(n / 2) * n + u];
    if (m_log) v = 20 * std::log10(std::max(v, 1e-3));
    top = std::max(top, v);
    bottom = std::min(bottom, v);
    points << QPointF(static_cast<double>(u - n / 2) / n, v);
  }
  m_cut->replace(points);
  m_cut->setPen(QPen(gui::theme::channelColor(m_channel), 1.8));
  m_cutY->setTitleText(m_log ? tr("|H| dB") : tr("|H|"));
  if (m_log) bottom = std::max(bottom, top - 60);
  m_cutY->setRange(bottom, top <= bottom ? bottom + 1 : top * (top > 0 ? 1.05 : 0.95) + (m_log ? 3 : 0));
  m_cutY->applyNiceNumbers();
}

}  // namespace convolab::lab
