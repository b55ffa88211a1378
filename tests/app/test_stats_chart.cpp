// SPDX-License-Identifier: MIT
// The statistics chart draws the display stage (the preview's upload and paint on the GUI thread) beside
// upload, kernels and download, from what the collector hears of painted frames.
#include <QLineSeries>
#include <QTest>
#include <QValueAxis>
#include <chrono>

#include "app_test_support.hpp"
#include "gui_test_main.hpp"
#include "stats/stats_chart.hpp"
#include "stats/stats_collector.hpp"
#include "window/theme.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

FrameRecord processedAt(TimePoint when, std::uint64_t sequence) {
  FrameRecord r;
  r.sequence = sequence;
  r.hasTimings = true;
  r.processed = when;
  r.captured = when - std::chrono::milliseconds(3);
  r.timings.stages = {{"upload", 0.2}, {"convolve", 0.1}, {"download", 0.2}};
  r.timings.uploadMs = 0.2;
  r.timings.kernelMs = 0.1;
  r.timings.downloadMs = 0.2;
  return r;
}

}  // namespace

class StatsChartTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { convolab::test::prepareTestEnvironment(QStringLiteral("test_stats_chart")); }

  // Ten frames processed, each painted 1 ms later in 4 ms: a display line with ten points of 4 ms, its own
  // colour, and the axis tall enough for it (the stages alone sum to 0.5 ms).
  void displayLineBesideTheStages() {
    StatsCollector stats;
    const TimePoint t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 10; ++i) {
      const TimePoint at = t0 + std::chrono::milliseconds(33 * i);
      stats.addProcessed(processedAt(at, static_cast<std::uint64_t>(i + 1)));
      stats.addDisplayed(at + std::chrono::milliseconds(1), at - std::chrono::milliseconds(3), 4.0);
    }
    StatsChart chart;
    chart.updateSeries(stats.history(), stats.secondsSinceStart(t0 + std::chrono::milliseconds(330)), 33.3);
    QLineSeries* display = chart.series(QStringLiteral("display"));
    QVERIFY(display);
    QCOMPARE(display->count(), 10);
    for (const QPointF& p : display->points()) QCOMPARE(p.y(), 4.0);
    for (const char* stage : {"upload", "convolve", "download"})
      QVERIFY(chart.series(QString::fromLatin1(stage)));
    QCOMPARE(chart.seriesCount(), 4);
    QCOMPARE(display->pen().color(), theme::stageColor(QStringLiteral("display"), 0));
    for (const char* other : {"upload", "convolve", "download"})
      QVERIFY(display->pen().color() != chart.series(QString::fromLatin1(other))->pen().color());
    QVERIFY2(chart.yMax() >= 4.0, qPrintable(QString::number(chart.yMax())));
  }

  // 33.6: every tick label reads its exact value (0–10 read 0/3/5/8/10; 0–5 read 1.3 and 3.8).
  void tickLabelsAreExact() {
    for (const double paintMs : {0.07, 0.4, 0.9, 1.7, 4.0, 7.3, 45.0}) {
      StatsCollector stats;
      const TimePoint t0 = std::chrono::steady_clock::now();
      stats.addProcessed(processedAt(t0, 1));
      stats.addDisplayed(t0 + std::chrono::milliseconds(1), t0, paintMs);
      StatsChart chart;
      chart.updateSeries(stats.history(), stats.secondsSinceStart(t0 + std::chrono::milliseconds(5)), 0);
      const QValueAxis* y = chart.yAxis();
      QVERIFY(y->tickCount() >= 5 && y->tickCount() <= 6);
      const QByteArray format = y->labelFormat().toLatin1();
      for (int i = 0; i < y->tickCount(); ++i) {
        const double value = y->max() * i / (y->tickCount() - 1);
        const QString label = QString::asprintf(format.constData(), value);
        QVERIFY2(std::abs(label.toDouble() - value) < 1e-9 * std::max(1.0, value),
                 qPrintable(QStringLiteral("%1 ms: tick %2 reads %3").arg(paintMs).arg(value).arg(label)));
      }
    }
  }

  // A paint with no measurement (< 0), or none yet: no display line; a frame painted twice counts once.
  void noLineWithoutPaintTimes() {
    StatsCollector stats;
    const TimePoint t0 = std::chrono::steady_clock::now();
    stats.addProcessed(processedAt(t0, 1));
    stats.addDisplayed(t0 + std::chrono::milliseconds(1), t0, -1);
    stats.addProcessed(processedAt(t0 + std::chrono::milliseconds(33), 2));
    StatsChart chart;
    chart.updateSeries(stats.history(), stats.secondsSinceStart(t0 + std::chrono::milliseconds(40)), 33.3);
    QVERIFY(!chart.series(QStringLiteral("display")));
    QCOMPARE(chart.seriesCount(), 3);
    stats.addDisplayed(t0 + std::chrono::milliseconds(35), t0, 2.0);
    stats.addDisplayed(t0 + std::chrono::milliseconds(36), t0, 7.0);  // a repaint: the frame keeps 2 ms
    chart.updateSeries(stats.history(), stats.secondsSinceStart(t0 + std::chrono::milliseconds(40)), 33.3);
    QLineSeries* display = chart.series(QStringLiteral("display"));
    QVERIFY(display);
    QCOMPARE(display->count(), 1);
    QCOMPARE(display->at(0).y(), 2.0);
  }
};

CONVOLAB_GUI_TEST_MAIN(StatsChartTest)
#include "test_stats_chart.moc"
