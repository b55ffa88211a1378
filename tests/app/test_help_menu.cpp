// SPDX-License-Identifier: MIT
// The Help menu and the lab's entries in a real window: the manual opens (compiled in, so it works from the
// build tree, installed and offline), What Is This Strategy? explains the selected strategy and the one auto
// runs, every strategy has its text, and View ▸ Pixel Inspector switches the inspector off and on.
#include <QAction>
#include <QDialog>
#include <QImage>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTest>
#include <QTextBrowser>

#include "app_test_support.hpp"
#include "convolab/registry.hpp"
#include "gui_test_main.hpp"
#include "lab/lab_controller.hpp"
#include "processing/pipeline.hpp"
#include "window/help_dialogs.hpp"
#include "window/main_window.hpp"
#include "window/strategy_help.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

QDialog* visibleDialog(QWidget& window, const QString& name) {
  for (QDialog* d : window.findChildren<QDialog*>(name))
    if (d->isVisible()) return d;
  return nullptr;
}

}  // namespace

class HelpMenuTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("help-menu-test")); }

  // 33.1: the manual is the user guide, with its pictures compiled in, and no developer material.
  void manualIsTheUserGuideWithItsPictures() {
    const QString md = manualMarkdown();
    QVERIFY(md.startsWith(QStringLiteral("# ConvoLab User Guide\n")));
    for (const char* section :
         {"## First start", "## Editing a filter", "## Presets", "## Sources", "## Saving and recording",
          "## The strategy lab", "## Virtual camera", "## Troubleshooting", "## Shortcuts"})
      QVERIFY2(md.contains(QLatin1String(section)), section);
    QVERIFY(md.contains(QStringLiteral("! videoconvert !")));  // 33.11's PipeWire 0.3.65 note
    // Developer material and Markdown that QTextBrowser shows raw (the `\|` of GUI.md's tables).
    for (const char* developer : {"showFullScreen", "EnginePreparer", "pinned", "#2b5d8a", "contrast",
                                  "app/gui", "test_", "`--", "\\|", "QSettings"})
      QVERIFY2(!md.contains(QLatin1String(developer)), developer);
    QWidget parent;
    QDialog* manual = showManual(&parent);
    auto* browser = manual->findChild<QTextBrowser*>(QStringLiteral("manualBrowser"));
    QVERIFY(browser);
    QCOMPARE(browser->document()->metaInformation(QTextDocument::DocumentTitle).isEmpty(), true);
    QVERIFY(browser->toPlainText().startsWith(QStringLiteral("ConvoLab User Guide")));
    static const QRegularExpression image(QStringLiteral(R"(!\[[^\]]*\]\(([^)\s]+)\))"));
    int pictures = 0;
    for (auto it = image.globalMatch(md); it.hasNext(); ++pictures) {
      const QString name = it.next().captured(1);
      const QVariant loaded = browser->loadResource(QTextDocument::ImageResource, QUrl(name));
      QVERIFY2(loaded.isValid() && !QImage::fromData(loaded.toByteArray()).isNull(), qPrintable(name));
    }
    QVERIFY(pictures >= 5);
    manual->close();
  }

  // 33.2: Enter in the find box finds the next match, and the manual stays open.
  void enterInTheFindBoxFindsTheNextMatch() {
    QWidget parent;
    QDialog* manual = showManual(&parent);
    QVERIFY(QTest::qWaitForWindowActive(manual));
    auto* find = manual->findChild<QLineEdit*>(QStringLiteral("manualFind"));
    auto* browser = manual->findChild<QTextBrowser*>(QStringLiteral("manualBrowser"));
    QVERIFY(find && browser);
    find->setFocus();
    QTest::keyClicks(find, QStringLiteral("preset"));
    QTest::keyClick(find, Qt::Key_Return);
    const int first = browser->textCursor().selectionStart();
    QVERIFY(browser->textCursor().hasSelection());
    QTest::keyClick(find, Qt::Key_Return);
    QTest::keyClick(find, Qt::Key_Enter, Qt::KeypadModifier);
    QCoreApplication::processEvents();
    QVERIFY(manual->isVisible());
    QVERIFY2(browser->textCursor().selectionStart() > first, "Enter did not move to the next match");
    QCOMPARE(browser->textCursor().selectedText().toLower(), QStringLiteral("preset"));
    manual->close();
  }

  void everyStrategyIsExplained() {
    for (const StrategyEntry& e : strategyRegistry()) {
      const StrategyHelp h =
          strategyHelp(QString::fromUtf8(e.name.data(), static_cast<qsizetype>(e.name.size())));
      QVERIFY2(!h.summary.isEmpty() && !h.how.isEmpty() && !h.wins.isEmpty(), e.name.data());
    }
    const QString html = strategyHelpHtml(QStringLiteral("auto"), StrategyId::parse("auto:tiled/16x8"));
    QVERIFY(html.contains(QStringLiteral("measures the strategies")));  // auto's registry line
    QVERIFY(html.contains(QStringLiteral("Running now: auto:tiled/16x8")));
    QVERIFY(html.contains(QStringLiteral("register tiling")));  // tiled's registry line
  }

  void helpEntriesOpenTheirWindows() {
    MainWindow window(test::launchOptions(test::dataFile(QStringLiteral("coffee.png"))));
    window.resize(1366, 768);
    window.show();
    QVERIFY(test::waitForFrame(window, window.pipeline()->filterRevision()));

    window.action(ActionId::UserManual)->trigger();
    QDialog* manual = visibleDialog(window, QStringLiteral("manualDialog"));
    QVERIFY(manual);
    auto* browser = manual->findChild<QTextBrowser*>(QStringLiteral("manualBrowser"));
    QVERIFY(browser);
    QVERIFY(browser->toPlainText().contains(QStringLiteral("Editing a filter")));
    window.action(ActionId::UserManual)->trigger();  // raised, not a second one
    QCOMPARE(window.findChildren<QDialog*>(QStringLiteral("manualDialog")).size(), 1);
    manual->close();

    window.action(ActionId::StrategyHelp)->trigger();
    QDialog* help = visibleDialog(window, QStringLiteral("strategyHelpDialog"));
    QVERIFY(help);
    const QString text = help->findChild<QTextBrowser*>()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("one work-item per pixel")), qPrintable(text));  // naive's line
    QVERIFY(text.contains(QStringLiteral("How it works.")));
    help->close();

    window.action(ActionId::Shortcuts)->trigger();
    QDialog* keys = visibleDialog(window, QStringLiteral("shortcutsDialog"));
    QVERIFY(keys);
    QVERIFY(keys->findChild<QTextBrowser*>()->toPlainText().contains(QStringLiteral("Kernel Source")));
    keys->close();

    QAction* inspector = window.action(ActionId::PixelInspector);
    QVERIFY(inspector->isChecked());
    QVERIFY(window.lab()->inspector());
    inspector->trigger();
    QVERIFY(!inspector->isChecked());
    QVERIFY(!window.lab()->inspector());
    inspector->trigger();
    QVERIFY(window.lab()->inspector());
  }
};

CONVOLAB_GUI_TEST_MAIN(HelpMenuTest)
#include "test_help_menu.moc"
