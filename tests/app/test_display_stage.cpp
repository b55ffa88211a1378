// SPDX-License-Identifier: MIT
// The display stage: the preview's upload and paint on the GUI thread, per displayed frame, in the statistics
// (window and whole run, the first frame left out as warm-up) and in --stats beside the device stages, with
// the back-end that painted; and the window feeds it from the preview's own paints.
#include <QLabel>
#include <QTest>
#include <nlohmann/json.hpp>

#include "app_test_support.hpp"
#include "gui_test_main.hpp"
#include "preview/preview_widget.hpp"
#include "stats/stats_collector.hpp"
#include "stats/stats_panel.hpp"
#include "stats/stats_report.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;
using std::chrono::milliseconds;

class DisplayStageTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { convolab::test::prepareTestEnvironment(QStringLiteral("test_display_stage")); }

  void collectorSummarisesPaintTimes() {
    StatsCollector stats;
    stats.setKeepRun(true);
    stats.setDisplayPath("OpenGL 4.5 · test");
    const auto t0 = std::chrono::steady_clock::now();
    // 20 frames painted in 2, 4, 6 … ms; the first (40 ms, a warm-up paint) only in the window.
    stats.addDisplayed(t0, t0 - milliseconds(5), 40.0);
    for (int i = 1; i <= 20; ++i)
      stats.addDisplayed(t0 + milliseconds(10 * i), t0 + milliseconds(10 * i - 5), 2.0 * i);
    const StatsSnapshot window = stats.snapshot(t0 + milliseconds(200), milliseconds(1000));
    QCOMPARE(window.display.samples, 21);
    QCOMPARE(window.display.current, 40.0);
    const StatsSnapshot run = stats.runSummary();
    QCOMPARE(run.display.samples, 20);
    QCOMPARE(run.display.mean, 21.0);
    QCOMPARE(run.display.p95, 38.0);
    QCOMPARE(run.displayPath, std::string("OpenGL 4.5 · test"));
    const auto j = nlohmann::json::parse(statsJson(run, "dev", "auto", 20));
    QVERIFY(j["stages"].contains("display"));
    QCOMPARE(j["stages"]["display"]["mean_ms"].get<double>(), 21.0);
    QCOMPARE(j["stages"]["display"]["samples"].get<int>(), 20);
    QCOMPARE(j["stages"]["display"]["path"].get<std::string>(), std::string("OpenGL 4.5 · test"));
  }

  // Frames shown without a paint time (a caller that does not measure) leave the stage out.
  void unmeasuredDisplayIsLeftOut() {
    StatsCollector stats;
    stats.setKeepRun(true);
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 5; ++i) stats.addDisplayed(t0 + milliseconds(10 * i), t0);
    const auto j = nlohmann::json::parse(statsJson(stats.runSummary(), "dev", "auto", 5));
    QVERIFY(!j["stages"].contains("display"));
  }

  // The window times the preview's paints: every displayed frame brings its paint time.
  void windowFeedsThePreviewsPaintTimes() {
    MainWindow window(test::launchOptions(QStringLiteral("pattern:320x240@30")));
    window.show();
    QVERIFY(convolab::test::waitForFrame(window, 0));
    QTRY_VERIFY_WITH_TIMEOUT(window.stats().snapshot(std::chrono::steady_clock::now()).display.samples >= 5,
                             20000);
    const StatsSnapshot s = window.stats().snapshot(std::chrono::steady_clock::now());
    QVERIFY2(s.display.mean > 0, qPrintable(QString::number(s.display.mean)));
    QCOMPARE(QString::fromStdString(s.displayPath), window.preview()->rendererDescription());
    // The statistics panel shows both: the time, and the back-end.
    QTRY_COMPARE(window.statsPanel()->valueLabel(QStringLiteral("preview"))->text(),
                 window.preview()->rendererDescription());
    QTRY_VERIFY(
        window.statsPanel()->valueLabel(QStringLiteral("display"))->text().contains(QLatin1String("p95")));
    QVERIFY(QString::fromStdString(statsText(s, "dev", "naive")).contains(QLatin1String("display")));
  }
};

CONVOLAB_GUI_TEST_MAIN(DisplayStageTest)
#include "test_display_stage.moc"
