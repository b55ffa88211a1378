// SPDX-License-Identifier: MIT
// Issue 24, the first minute and readability at 1366×768: the first start opens Emboss in split view with a
// hint and later starts restore what the user had (the "modified" star included); the statistics say "—"
// until they have figures and never count a still image's repeats; the status bar makes room for a long
// message; the border box reads whole; Export Filter and Export Filtered Video default to the user's folders;
// selected items in the combo boxes are readable (contrast ≥ 4.5).
#include <QAbstractItemView>
#include <QComboBox>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyleOptionComboBox>
#include <QTableWidget>
#include <QTest>
#include <cmath>

#include "app_settings.hpp"
#include "app_test_support.hpp"
#include "editor/channel_grid.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "editor/filter_files.hpp"
#include "gui_test_main.hpp"
#include "outputs/frame_saver.hpp"
#include "outputs/video_export_dialog.hpp"
#include "preview/preview_widget.hpp"
#include "stats/stats_chart.hpp"
#include "stats/stats_panel.hpp"
#include "window/main_window.hpp"
#include "window/theme.hpp"
#include "window/window_chrome.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

LaunchOptions imageSource() {
  LaunchOptions o;
  o.source = test::dataFile(QStringLiteral("coffee.png"));
  return o;
}

}  // namespace

class FirstMinuteTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    test::prepareTestEnvironment(QStringLiteral("first-minute-test"));
    QSettings().clear();
  }

  void firstStartOpensEmbossInSplitViewWithAHint() {
    QVERIFY(!QSettings().contains(QStringLiteral("filter/json")));  // a first start
    {
      MainWindow window(imageSource());
      window.show();
      QCOMPARE(QString::fromStdString(window.document()->filter().name()), QStringLiteral("Emboss"));
      QVERIFY(!window.document()->isModified());
      QCOMPARE(window.preview()->viewMode(), ViewMode::Split);
      QVERIFY(window.editor()->hint()->isVisible());
      QVERIFY(window.editor()->hintLabel()->text().contains(QStringLiteral("any cell")));
      // Remembered at once: the second start is no first start, whatever happens next.
      QVERIFY(QSettings().contains(QStringLiteral("filter/json")));
      // The user edits a cell and leaves.
      window.editor()->grid(0)->table()->item(3, 3)->setText(QStringLiteral("2"));
      QVERIFY(window.document()->isModified());
      QVERIFY(window.windowTitle().contains(QStringLiteral("Emboss*")));
      // The name once, last: the window system appends it to a title that does not end with it (33.10).
      QVERIFY2(window.windowTitle().endsWith(QStringLiteral(" — ConvoLab")) &&
                   window.windowTitle().count(QStringLiteral("ConvoLab")) == 1,
               qPrintable(window.windowTitle()));
    }
    MainWindow second(imageSource());
    second.show();
    QCOMPARE(second.document()->filter().channel(0).at(3, 3), 2.0);
    QCOMPARE(second.preview()->viewMode(), ViewMode::Split);
    QVERIFY(!second.editor()->hint()->isVisible());
    // The edit is still an edit: the star and the title say so (it came back as a plain "Emboss").
    QVERIFY(second.document()->isModified());
    QCOMPARE(second.document()->displayName(), QStringLiteral("Emboss*"));
    QVERIFY(second.windowTitle().contains(QStringLiteral("Emboss*")));
    QCOMPARE(second.editor()->titleLabel()->text(), QStringLiteral("Emboss*"));
    // Back to the baseline: no star after the next restart either.
    second.document()->resetToIdentity();
  }

  void anUnmodifiedFilterComesBackUnmodified() {
    MainWindow window(imageSource());
    QCOMPARE(window.document()->displayName(), QStringLiteral("Identity"));
    QVERIFY(!window.document()->isModified());
    QCOMPARE(window.preview()->viewMode(), ViewMode::Split);  // the user's view, not the first start's
  }

  void statisticsSayDashUntilTheyHaveFigures() {
    StatsPanel panel;
    panel.showStats(StatsSnapshot{});
    QTableWidget* table = panel.stageTable();
    const int total = table->rowCount() - 2;
    QCOMPARE(table->item(total, 0)->text(), QStringLiteral("Total"));
    for (int c = 1; c <= 3; ++c) QCOMPARE(table->item(total, c)->text(), QStringLiteral("—"));
    QCOMPARE(panel.valueLabel(QStringLiteral("latency"))->text(), QStringLiteral("—"));
    QCOMPARE(panel.valueLabel(QStringLiteral("dropped"))->text(), QStringLiteral("—"));
    QCOMPARE(panel.valueLabel(QStringLiteral("source"))->text(), QStringLiteral("—"));

    // A still image: the image source hands the one picture over ~30 times a second; those repeats are no
    // deliveries that could be dropped ("Dropped 0 / 581" after 20 s).
    StatsSnapshot still;
    still.sourceFps = 30;
    still.nominalFps = 30;
    still.delivered = 581;
    still.lastPass = true;
    panel.setProcessingState({}, true);
    panel.showStats(still);
    const QString dropped = panel.valueLabel(QStringLiteral("dropped"))->text();
    QVERIFY2(!dropped.contains(QStringLiteral("581")), qPrintable(dropped));
    QVERIFY2(dropped.contains(QStringLiteral("still image")), qPrintable(dropped));
    QCOMPARE(panel.valueLabel(QStringLiteral("source"))->text(), QStringLiteral("still image"));
    panel.showHistory({}, 0, 33.3);  // nor a frame budget: the chart draws no budget line for a still
    QVERIFY(!panel.chart()->budgetShown());
  }

  void warmingUpFitsTheStatisticsDockAt1366() {
    // The dock as the main window builds it: the panel in a scroll area, 360 pixels wide at 1366×768.
    auto* panel = new StatsPanel;
    QScrollArea* scroll = scrollableDockContent(panel);
    scroll->resize(360, 700);
    scroll->show();
    StatsSnapshot s;
    s.sourceFps = 30;
    s.stages = {{"upload", 0.05, 0.05, 0.06, 1},
                {"convolve_dynamic", 0.71, 0.7, 0.9, 1},
                {"download", 0.04, 0.04, 0.04, 1}};
    s.total = {"total", 0.8, 0.79, 1.0, 1};
    panel->setProcessingState(QStringLiteral("measuring strategies 3/10 (tiled/b16x4-wg8x8-f16-s0-c1)…"),
                              false);
    panel->showStats(s);
    QCoreApplication::processEvents();
    QTest::qWait(20);
    QVERIFY2(!scroll->horizontalScrollBar()->isVisible(),
             qPrintable(QStringLiteral("the panel needs %1 px").arg(panel->minimumSizeHint().width())));
    QTableWidget* table = panel->stageTable();
    for (int c = 1; c <= 3; ++c)
      QVERIFY2(table->columnViewportPosition(c) + table->columnWidth(c) <= table->viewport()->width(),
               qPrintable(QStringLiteral("column %1 cut off").arg(c)));
    QVERIFY(panel->valueLabel(QStringLiteral("dropped"))->text().contains(QStringLiteral("warming up")));
    delete scroll;
  }

  void statusBarMakesRoomForALongMessage() {
    MainWindow window(imageSource());
    window.resize(1366, 768);
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(!window.isLoadingSource(), 10000);
    QStatusBar* bar = window.statusBar();
    const QString message = QStringLiteral(
        "x 123, y 45   in RGB (200, 180, 160) → out RGB (255, 128, 128)   R = 128 + (−2·201 − 1·199 + 1·180 "
        "+ "
        "2·175)   (hold Shift for the R neighbourhood, +Ctrl G, +Alt B)");
    bar->showMessage(message);
    QCoreApplication::processEvents();
    QTest::qWait(20);
    int left = bar->width();
    for (QWidget* w : bar->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
      if (w->isVisible()) left = std::min(left, w->geometry().left());
    QVERIFY2(bar->fontMetrics().horizontalAdvance(message) + 8 <= left,
             qPrintable(QStringLiteral("%1 px of message, %2 px of room")
                            .arg(bar->fontMetrics().horizontalAdvance(message))
                            .arg(left)));
    bar->clearMessage();
    QCoreApplication::processEvents();
    int visible = 0;
    for (QWidget* w : bar->findChildren<QLabel*>(QString(), Qt::FindDirectChildrenOnly))
      visible += w->isVisible();
    QVERIFY(visible >= 2);  // the source and engine labels are back
  }

  void exportsDefaultToTheUsersFolders() {
    // Export Filtered Video: ~/Videos/ConvoLab as Record, not the input's (test-data) folder.
    const QString input = test::dataFile(QStringLiteral("video/clip.mp4"));
    AppSettings settings;
    settings.remove(AppSettings::kLastVideoExportDir);
    QCOMPARE(QFileInfo(videoExportSuggestedOutput(&settings, input)).absolutePath(), defaultVideosDir());
    // The input dialog opens in a folder that exists (33.7: a missing ~/Videos was typed as the file name).
    const QString videos = QStandardPaths::writableLocation(QStandardPaths::MoviesLocation);
    QDir(videos).removeRecursively();
    QCOMPARE(videoExportInputDir(), QDir::homePath());
    QVERIFY(QDir().mkpath(videos));
    QCOMPARE(videoExportInputDir(), videos);
    const QString mine = QDir::homePath() + QStringLiteral("/exports");
    settings.set(AppSettings::kLastVideoExportDir, mine);
    QCOMPARE(QFileInfo(videoExportSuggestedOutput(&settings, input)).absolutePath(), mine);
    QCOMPARE(QFileInfo(videoExportSuggestedOutput(&settings, input)).fileName(),
             QStringLiteral("clip_filtered.mkv"));

    // Export Filter: Documents, not the folder a filter was imported from; then where the user exported.
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    {
      MainWindow window(imageSource());
      QVERIFY(window.editor()->files()->importFile(
          test::dataFile(QStringLiteral("../../resources/presets/sharpen.json"))));
      QCOMPARE(window.editor()->files()->exportDir(), documents);
      emit window.editor()->files()->exportDirChosen(
          mine);  // as the dialog does once the user picked a file there
    }
    MainWindow restarted(imageSource());
    QCOMPARE(restarted.editor()->files()->exportDir(), mine);
  }

  void borderBoxReadsWholeAt1366() {
    MainWindow window(imageSource());
    window.resize(1366, 768);
    window.show();
    QCoreApplication::processEvents();
    QComboBox* box = window.editor()->borderBox();
    QStyleOptionComboBox option;
    option.initFrom(box);
    option.editable = false;
    const QRect field =
        box->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, box);
    for (int i = 0; i < box->count(); ++i)
      QVERIFY2(box->fontMetrics().horizontalAdvance(box->itemText(i)) <= field.width(),
               qPrintable(QStringLiteral("'%1' needs %2 px, the box shows %3")
                              .arg(box->itemText(i))
                              .arg(box->fontMetrics().horizontalAdvance(box->itemText(i)))
                              .arg(field.width())));
  }

  // Last: it applies the app's theme (palette and style sheet) to this process.
  void selectedItemsAreReadable() {
    theme::apply(*qApp);
    const QPalette app = QApplication::palette();
    QVERIFY(test::contrastRatio(app.color(QPalette::Highlight), app.color(QPalette::HighlightedText)) >= 4.5);
    // The Strategy, Size and Border boxes' lists: their selection colours come from the style sheet.
    QComboBox box;
    box.addItems({QStringLiteral("auto"), QStringLiteral("naive"), QStringLiteral("tiled")});
    box.show();
    box.showPopup();
    QCoreApplication::processEvents();
    const QPalette list = box.view()->palette();
    const double ratio =
        test::contrastRatio(list.color(QPalette::Highlight), list.color(QPalette::HighlightedText));
    QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("%1 on %2: %3")
                                          .arg(list.color(QPalette::HighlightedText).name(),
                                               list.color(QPalette::Highlight).name())
                                          .arg(ratio)));
    box.hidePopup();
  }
};

CONVOLAB_GUI_TEST_MAIN(FirstMinuteTest)
#include "test_first_minute.moc"
