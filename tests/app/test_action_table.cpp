// SPDX-License-Identifier: MIT
// The action table: every row becomes one typed action, every action is reachable from the menus, toolbar
// faces carry their icon, no two actions share a shortcut, the slots are offered to the window, and the F1
// list holds the lab's keys.
#include <QAction>
#include <QActionGroup>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTest>
#include <QTextDocument>
#include <QToolBar>
#include <QUndoStack>

#include "gui_test_main.hpp"
#include "window/action_table.hpp"

using namespace convolab::gui;

namespace {

/// Every action reachable from `actions`, submenus included.
void collect(const QList<QAction*>& actions, QSet<QAction*>& into) {
  for (QAction* a : actions) {
    into.insert(a);
    if (a->menu()) collect(a->menu()->actions(), into);
  }
}

}  // namespace

class ActionTableTest : public QObject {
  Q_OBJECT

 private slots:
  void rowsBecomeTypedActions() {
    QMainWindow window;
    QUndoStack undo;
    ActionTable table(&window, &undo);
    QCOMPARE(actionRows().size(), static_cast<std::size_t>(ActionId::kCount));
    for (std::size_t i = 0; i < actionRows().size(); ++i) {
      const ActionRow& row = actionRows()[i];
      QCOMPARE(static_cast<std::size_t>(row.id), i);  // rows in ActionId order
      QAction* a = table[row.id];
      QVERIFY(a);
      QCOMPARE(a->objectName(), QString::fromLatin1(row.name));
      QCOMPARE(table.byName(QString::fromLatin1(row.name)), a);
      QCOMPARE(a->shortcuts(), row.keys);
      QCOMPARE(a->isCheckable(), row.checkable);
      QCOMPARE(a->icon().isNull(), row.icon == nullptr);
    }
    QCOMPARE(table[ActionId::SaveFrame]->toolTip(),
             QStringLiteral("Save the filtered frame at full resolution as PNG in ~/Pictures/ConvoLab (%1)")
                 .arg(QKeySequence(QKeySequence::Save).toString(QKeySequence::NativeText)));
    QCOMPARE(table[ActionId::SaveFrameAs]->toolTip(),
             QStringLiteral("Save Frame As (%1)")
                 .arg(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S).toString(QKeySequence::NativeText)));
    QCOMPARE(table.viewGroup()->actions().size(), 3);
    QVERIFY(table.viewGroup()->isExclusive());
  }

  void noSharedShortcut() {
    QMainWindow window;
    QUndoStack undo;
    ActionTable table(&window, &undo);
    QSet<QString> seen;
    for (const ActionRow& row : actionRows())
      for (const QKeySequence& key : table[row.id]->shortcuts()) {
        QVERIFY2(!seen.contains(key.toString()), qPrintable(key.toString()));
        seen.insert(key.toString());
      }
  }

  void menusAndToolBarHoldEveryAction() {
    QMainWindow window;
    QUndoStack undo;
    ActionTable table(&window, &undo);
    QList<ActionSlot> filled;
    auto fill = [&](ActionSlot slot, QWidget*) { filled << slot; };
    table.buildMenus(window.menuBar(), fill);
    QSet<QAction*> inMenus;
    collect(window.menuBar()->actions(), inMenus);
    for (const ActionRow& row : actionRows()) QVERIFY2(inMenus.contains(table[row.id]), row.name);
    QStringList titles;
    for (QAction* a : window.menuBar()->actions()) titles << a->text();
    QCOMPARE(titles, (QStringList{"&File", "&Edit", "&View", "&Processing", "&Help"}));

    auto* bar = new QToolBar(&window);
    table.buildToolBar(bar, fill);
    for (const ActionRow& row : actionRows())
      if (row.icon) QVERIFY2(bar->actions().contains(table[row.id]), row.name);  // every face is on it
    for (ActionSlot slot : {ActionSlot::CameraMenu, ActionSlot::PresetsMenu, ActionSlot::EngineMenus,
                            ActionSlot::SourceButton, ActionSlot::EngineBoxes})
      QVERIFY(filled.contains(slot));
  }

  void shortcutListHasTheLabsKeys() {
    // The lab's actions are table rows (so F1 and the menus show them), and the inspector's held keys are
    // listed though they are no action.
    QMainWindow window;
    QUndoStack undo;
    ActionTable table(&window, &undo);
    QCOMPARE(table[ActionId::CompareStrategies]->shortcuts(),
             QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::Key_M)});
    QCOMPARE(table[ActionId::KernelSource]->shortcuts(),
             QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K)});
    const QString html = table.shortcutListHtml();
    for (const QString& expected :
         {QStringLiteral("Compare Strategies…"),
          QKeySequence(Qt::CTRL | Qt::Key_M).toString(QKeySequence::NativeText),
          QStringLiteral("Kernel Source…"),
          QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K).toString(QKeySequence::NativeText),
          QStringLiteral("Inspect pixel: R neighbourhood"), QStringLiteral("Shift+Alt")})
      QVERIFY2(html.contains(expected), qPrintable(expected));
  }

  void labAndHelpEntriesHaveMenusAndKeys() {
    // The pixel inspector is a View entry with a key; Help has the manual and What Is This Strategy?.
    QMainWindow window;
    QUndoStack undo;
    ActionTable table(&window, &undo);
    table.buildMenus(window.menuBar(), [](ActionSlot, QWidget*) {});
    auto menuOf = [&window](const QString& title) -> QMenu* {
      for (QAction* a : window.menuBar()->actions())
        if (a->text() == title) return a->menu();
      return nullptr;
    };
    QMenu* view = menuOf(QStringLiteral("&View"));
    QMenu* help = menuOf(QStringLiteral("&Help"));
    QVERIFY(view && help);
    QVERIFY(view->actions().contains(table[ActionId::PixelInspector]));
    QVERIFY(table[ActionId::PixelInspector]->isCheckable());
    QCOMPARE(table[ActionId::PixelInspector]->shortcuts(),
             QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I)});
    QCOMPARE(table[ActionId::PixelInspector]->text(), QStringLiteral("Pixel &Inspector"));
    QVERIFY(table[ActionId::PixelInspector]->toolTip().contains(QStringLiteral("Shift+Alt")));
    for (ActionId id : {ActionId::UserManual, ActionId::StrategyHelp, ActionId::Shortcuts, ActionId::About})
      QVERIFY(help->actions().contains(table[id]));
    QCOMPARE(table[ActionId::UserManual]->shortcuts(),
             QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H)});
    QCOMPARE(table[ActionId::StrategyHelp]->shortcuts(),
             QList<QKeySequence>{QKeySequence(Qt::SHIFT | Qt::Key_F1)});
    const QString html = table.shortcutListHtml();
    for (const QString& expected :
         {QStringLiteral("Pixel Inspector"),
          QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I).toString(QKeySequence::NativeText),
          QStringLiteral("User Manual"), QStringLiteral("What Is This Strategy?"),
          QKeySequence(Qt::SHIFT | Qt::Key_F1).toString(QKeySequence::NativeText)})
      QVERIFY2(html.contains(expected), qPrintable(expected));
  }

  void shortcutListFitsA768PixelScreen() {
    // F1's list in one column ran off the bottom of a 1366×768 screen, and the lab's rows (Kernel Source,
    // Compare, the inspector's keys) near its end with it: laid out at the dialog's width it fits now.
    QMainWindow window;
    QUndoStack undo;
    ActionTable table(&window, &undo);
    QTextDocument doc;
    doc.setDefaultFont(window.font());
    doc.setHtml(table.shortcutListHtml());
    doc.setTextWidth(940);
    QVERIFY2(doc.size().height() < 600, qPrintable(QString::number(doc.size().height())));
  }
};

CONVOLAB_GUI_TEST_MAIN(ActionTableTest)
#include "test_action_table.moc"
