// SPDX-License-Identifier: MIT
// Settings survive a restart, and are on disk as soon as they change (so they survive a crash too).
#include <QSettings>
#include <QTableWidget>
#include <QTest>

#include "app_test_support.hpp"
#include "convolab/filter_io.hpp"
#include "editor/channel_grid.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "gui_test_main.hpp"
#include "preview/preview_widget.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;

class SettingsTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("settings-test")); }

  void everythingSurvivesARestart() {
    FilterSet edited;
    {
      MainWindow window(test::launchOptions(QStringLiteral("pattern:320x240@15")));
      window.show();
      window.editor()->grid(1)->table()->item(2, 2)->setText(QStringLiteral("3.25"));
      window.document()->setLinked(true);
      window.document()->setBorder(BorderMode::Wrap);
      window.action(ActionId::ViewSplit)->trigger();
      window.action(ActionId::Bypass)->trigger();
      window.setStrategy(QStringLiteral("naive"));
      edited = window.document()->filter();

      // Already on disk, before any orderly shutdown: a crash here would lose nothing. (The source is
      // remembered once it has opened, off the GUI thread.)
      QTRY_VERIFY_WITH_TIMEOUT(!window.isLoadingSource(), 10000);
      QSettings disk;
      const FilterSet stored =
          parseFilterJson(disk.value(QStringLiteral("filter/json")).toString().toStdString());
      QCOMPARE(stored, edited);
      QCOMPARE(disk.value(QStringLiteral("processing/strategy")).toString(), QStringLiteral("naive"));
      QCOMPARE(disk.value(QStringLiteral("source/spec")).toString(), QStringLiteral("pattern:320x240@15"));
    }
    MainWindow restarted;  // no command line: everything comes from the settings
    restarted.show();
    QCOMPARE(restarted.document()->filter(), edited);
    QCOMPARE(restarted.document()->filter().channel(1).at(2, 2), 3.25);
    QVERIFY(restarted.document()->linked());
    QCOMPARE(restarted.preview()->viewMode(), ViewMode::Split);
    QVERIFY(restarted.action(ActionId::Bypass)->isChecked());
    QCOMPARE(restarted.requestedStrategy(), QStringLiteral("naive"));
    QTRY_COMPARE_WITH_TIMEOUT(restarted.currentSourceSpec(), QStringLiteral("pattern:320x240@15"), 10000);
    QCOMPARE(restarted.editor()->grid(1)->table()->item(2, 2)->text(), QStringLiteral("3.25"));
  }

  void automatedRunsLeaveSettingsAlone() {
    QSettings disk;
    const QString before = disk.value(QStringLiteral("source/spec")).toString();
    LaunchOptions o;
    o.source = QStringLiteral("pattern:64x64@30");
    o.frames = 1000000;  // a --frames run
    o.strategy = QStringLiteral("naive");
    MainWindow window(o);
    disk.sync();
    QCOMPARE(disk.value(QStringLiteral("source/spec")).toString(), before);
  }
};

CONVOLAB_GUI_TEST_MAIN(SettingsTest)
#include "test_settings.moc"
