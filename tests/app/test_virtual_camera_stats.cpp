// SPDX-License-Identifier: MIT
// The virtual camera's output in the statistics: the panel's row, Copy as text and --stats carry its viewers,
// fps and drops while it is on, and say nothing of it (panel: "off") while it is off.
#include <QLabel>
#include <QTest>
#include <nlohmann/json.hpp>

#include "app_test_support.hpp"
#include "gui_test_main.hpp"
#include "stats/stats_collector.hpp"
#include "stats/stats_panel.hpp"
#include "stats/stats_report.hpp"
#include "vcam/loopback_feeder.hpp"
#include "vcam/publisher_status.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {
// The figures the publisher reports for this status.
output::SinkFigures camera(int viewers, double fps, std::uint64_t sent, std::uint64_t dropped,
                           const std::string& format) {
  vcam::PublisherStatus s;
  s.viewers = viewers;
  s.fps = fps;
  s.sent = sent;
  s.dropped = dropped;
  s.format = format;
  return vcam::publisherFigures(s);
}
void setSinks(StatsCollector& stats, std::vector<output::SinkFigures> sinks) {
  stats.setSinkSource([sinks] { return sinks; });
}
}  // namespace

class VirtualCameraStatsTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { convolab::test::prepareTestEnvironment(QStringLiteral("test_virtual_camera_stats")); }

  void offLeavesItOut() {
    StatsCollector stats;
    stats.setKeepRun(true);
    const auto j = nlohmann::json::parse(statsJson(stats.runSummary(), "dev", "auto", 0));
    QVERIFY(!j.contains("virtual_camera"));
    StatsPanel panel;
    panel.showStats(stats.snapshot(std::chrono::steady_clock::now()));
    QCOMPARE(panel.valueLabel(QStringLiteral("virtual_camera"))->text(), QStringLiteral("off"));
    QVERIFY(!panel.text().contains(QLatin1String("virtual camera")));
  }

  void onCarriesViewersFpsAndDrops() {
    StatsCollector stats;
    stats.setKeepRun(true);
    setSinks(stats, {camera(1, 29.97, 300, 4, "YUY2 640×480")});
    const auto j = nlohmann::json::parse(statsJson(stats.runSummary(), "dev", "auto", 0));
    QVERIFY(j.contains("virtual_camera"));
    QCOMPARE(j["virtual_camera"]["viewers"].get<int>(), 1);
    QCOMPARE(j["virtual_camera"]["fps"].get<double>(), 29.97);
    QCOMPARE(j["virtual_camera"]["sent"].get<int>(), 300);
    QCOMPARE(j["virtual_camera"]["dropped"].get<int>(), 4);
    QCOMPARE(j["virtual_camera"]["format"].get<std::string>(), std::string("YUY2 640×480"));
    StatsPanel panel;
    panel.showStats(stats.snapshot(std::chrono::steady_clock::now()));
    QLabel* row = panel.valueLabel(QStringLiteral("virtual_camera"));
    QCOMPARE(row->text(), QStringLiteral("1 viewer, 30 fps, 4 dropped"));
    QCOMPARE(row->toolTip(), QStringLiteral("Consumers read YUY2 640×480"));
    QVERIFY2(panel.text().contains(QLatin1String("virtual camera 1 viewer, 30.0 fps, 4 dropped")),
             qPrintable(panel.text()));
    QVERIFY(!j["virtual_camera"].contains("loopback"));  // none found
    // With a v4l2loopback device: its frames written and dropped, or why it stopped.
    setSinks(stats, {camera(1, 30, 300, 4, "YUY2 640×480"),
                     vcam::LoopbackFeeder::figuresOf("/dev/video7", 290, 3, "")});
    const auto withLoopback = nlohmann::json::parse(statsJson(stats.runSummary(), "dev", "auto", 0));
    QCOMPARE(withLoopback["virtual_camera"]["loopback"]["device"].get<std::string>(),
             std::string("/dev/video7"));
    QCOMPARE(withLoopback["virtual_camera"]["loopback"]["written"].get<int>(), 290);
    QCOMPARE(withLoopback["virtual_camera"]["loopback"]["dropped"].get<int>(), 3);
    panel.showStats(stats.snapshot(std::chrono::steady_clock::now()));
    QVERIFY2(panel.text().contains(QLatin1String("loopback   /dev/video7: 290 written, 3 dropped")),
             qPrintable(panel.text()));
    setSinks(stats, {camera(1, 30, 300, 4, ""),
                     vcam::LoopbackFeeder::figuresOf("/dev/video7", 0, 0, "format refused")});
    panel.showStats(stats.snapshot(std::chrono::steady_clock::now()));
    QVERIFY2(panel.text().contains(QLatin1String("loopback   /dev/video7: format refused")),
             qPrintable(panel.text()));
    // Turned off again: gone from the figures.
    setSinks(stats, {});
    QVERIFY(
        !nlohmann::json::parse(statsJson(stats.runSummary(), "dev", "auto", 0)).contains("virtual_camera"));
  }

  // No PipeWire: the row says so, not "0 viewers, 0 fps, 0 dropped" as if published; the system's words
  // ("Host is down") are in the tooltip, not the row (issue 33.6).
  void withoutPipeWireItSaysNotPublished() {
    vcam::PublisherStatus s;
    s.state = vcam::PublisherState::NoDaemon;
    s.message = "PipeWire is not running";
    s.cause = "Host is down";
    StatsCollector stats;
    stats.setKeepRun(true);
    setSinks(stats, {vcam::publisherFigures(s)});
    StatsPanel panel;
    panel.showStats(stats.snapshot(std::chrono::steady_clock::now()));
    QLabel* row = panel.valueLabel(QStringLiteral("virtual_camera"));
    QCOMPARE(row->text(), QStringLiteral("not published: PipeWire is not running"));
    QVERIFY2(row->toolTip().contains(QLatin1String("Host is down")), qPrintable(row->toolTip()));
    QVERIFY2(panel.text().contains(QLatin1String("virtual camera not published: PipeWire is not running")),
             qPrintable(panel.text()));
    const auto j = nlohmann::json::parse(statsJson(stats.runSummary(), "dev", "auto", 0));
    QCOMPARE(j["virtual_camera"]["not_published"].get<std::string>(), std::string("PipeWire is not running"));
    QCOMPARE(vcam::statusLine(s), std::string("Virtual camera: PipeWire is not running — retrying"));
  }
};

CONVOLAB_GUI_TEST_MAIN(VirtualCameraStatsTest)
#include "test_virtual_camera_stats.moc"
