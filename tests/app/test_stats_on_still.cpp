// SPDX-License-Identifier: MIT
// The statistics on a still image (issue 33.6): no source rate, no dropped counter and no frame budget, also
// while a new filter is pending (the image source's repeats are processed then, which once showed "Source
// 30.3 fps" and "Dropped 0 / 5141"); and the cumulative "Dropped" coloured by the share it shows.
#include <QLabel>
#include <QTableWidget>
#include <QTest>

#include "app_test_support.hpp"
#include "gui_test_main.hpp"
#include "stats/stats_panel.hpp"
#include "window/theme.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {
// What the collector reports while a still's repeats are processed with a pending filter.
StatsSnapshot stillWithFilterPending() {
  StatsSnapshot s;
  s.sourceFps = 30.3;
  s.nominalFps = 30;
  s.processedFps = 12.5;
  s.delivered = 5141;
  s.dropped = 0;
  s.budgetMs = 33.0;
  s.stages = {{"upload", 1.0, 1.0, 1.2}, {"conv", 4.0, 4.0, 4.5}};
  s.total = {"total", 5.0, 5.0, 5.7};
  return s;
}
QString text(StatsPanel& panel, const char* key) {
  return panel.valueLabel(QString::fromLatin1(key))->text();
}
}  // namespace

class StatsOnStillTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { convolab::test::prepareTestEnvironment(QStringLiteral("test_stats_on_still")); }

  void aStillShowsNoSourceRateDropsOrBudgetWhileAFilterIsPending() {
    StatsPanel panel;
    panel.setStillSource(true);
    panel.setProcessingState({}, false);  // not idle: the pending filter is being processed
    panel.showStats(stillWithFilterPending());
    QCOMPARE(text(panel, "source"), QStringLiteral("still image"));
    QVERIFY2(!text(panel, "dropped").contains(QLatin1String("5141")), qPrintable(text(panel, "dropped")));
    QCOMPARE(text(panel, "dropped"), QStringLiteral("— (still image)"));
    QVERIFY(text(panel, "processed").contains(QLatin1String("12.5 fps")));  // what processing did
    const int budgetRow = panel.stageTable()->rowCount() - 1;
    QCOMPARE(panel.stageTable()->item(budgetRow, 1)->text(), QStringLiteral("—"));
    // Another source (a camera) shows its figures again.
    panel.setStillSource(false);
    panel.showStats(stillWithFilterPending());
    QVERIFY(text(panel, "source").contains(QLatin1String("30.3 fps")));
    QCOMPARE(text(panel, "dropped"), QStringLiteral("0 / 5141 (0.0 %)"));
  }

  // "Copy as text" says what the panel says: it printed "source 30.3 fps" and "dropped 0 / 5141" on a still.
  void copyAsTextReadsAsThePanelOnAStill() {
    StatsPanel panel;
    panel.setStillSource(true);
    panel.setProcessingState({}, false);
    panel.showStats(stillWithFilterPending());
    const QString still = panel.text();
    QVERIFY2(still.contains(QLatin1String("source     still image")), qPrintable(still));
    QVERIFY2(!still.contains(QLatin1String("30.3")) && !still.contains(QLatin1String("5141")),
             qPrintable(still));
    QVERIFY2(!still.contains(QLatin1String("33.000")), qPrintable(still));  // no frame budget
    QVERIFY(still.contains(QLatin1String("12.5 fps")));                     // what processing did
    // Idle between changes, with the last pass's figures: the latency is that pass's, not a live mean.
    StatsSnapshot idle = stillWithFilterPending();
    idle.processedFps = 0;
    idle.lastPass = true;
    idle.latency = {"capture to display", 42.0, 10.0, 90.0, 1};
    panel.setProcessingState({}, true);
    panel.showStats(idle);
    QVERIFY2(panel.text().contains(QLatin1String("still image, idle")), qPrintable(panel.text()));
    QVERIFY2(panel.text().contains(QLatin1String("42.0 ms (last pass")), qPrintable(panel.text()));
    // A live source prints its figures.
    panel.setStillSource(false);
    panel.setProcessingState({}, false);
    panel.showStats(stillWithFilterPending());
    QVERIFY2(panel.text().contains(QLatin1String("30.3 fps")), qPrintable(panel.text()));
    QVERIFY(panel.text().contains(QLatin1String("0 / 5141")));
  }

  void droppedIsColouredByTheShareItShows() {
    StatsPanel panel;
    StatsSnapshot s = stillWithFilterPending();
    s.delivered = 3536;
    s.dropped = 858;
    s.recentDropShare = 0;  // nothing dropped in the last second
    panel.showStats(s);
    QLabel* dropped = panel.valueLabel(QStringLiteral("dropped"));
    QCOMPARE(dropped->text(), QStringLiteral("858 / 3536 (24.3 %)"));
    QVERIFY2(dropped->styleSheet().contains(theme::danger().name()), qPrintable(dropped->styleSheet()));
    s.dropped = 3;
    s.recentDropShare = 0.5;  // a bad last second does not make "0.1 %" red
    panel.showStats(s);
    QVERIFY2(!dropped->styleSheet().contains(theme::danger().name()), qPrintable(dropped->styleSheet()));
    QVERIFY(!dropped->styleSheet().contains(theme::warning().name()));
  }
};

CONVOLAB_GUI_TEST_MAIN(StatsOnStillTest)
#include "test_stats_on_still.moc"
