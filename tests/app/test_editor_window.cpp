// SPDX-License-Identifier: MIT
// Window-level tests of the editor's issue: the minimum size fits a 1280×720 screen (also at 15×15), F11
// toggles full screen by the window's state, a floated dock comes to the front, the stats dock scrolls.
#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QLayout>
#include <QScrollArea>
#include <QScrollBar>
#include <QTest>
#include <QToolButton>

#include "app_test_support.hpp"
#include "editor/channel_grid.hpp"
#include "editor/compact_spin_box.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "gui_test_main.hpp"
#include "processing/pipeline.hpp"
#include "window/main_window.hpp"
#include "window/window_chrome.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {
// Room a window manager takes on a 1280×720 screen: a title bar and a panel.
constexpr int kDecorationHeight = 64;
}  // namespace

class EditorWindowTest : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<MainWindow> m_window;

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("editor-window-test")); }

  void init() {
    LaunchOptions o;
    o.source = QStringLiteral("pattern:64x48@15");
    // Window-level checks need no particular strategy; naive builds one small program per K, where auto
    // (the default) would time every strategy at each K before the window could close.
    o.strategy = QStringLiteral("naive");
    m_window = std::make_unique<MainWindow>(o);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
  }

  void cleanup() {
    m_window->pipeline()->shutdown(3000);
    m_window.reset();
  }

  void minimumSizeFitsA1280x720Screen() {
    for (int k : {7, 15}) {
      m_window->document()->setSize(k);
      QCoreApplication::processEvents();
      const QSize min = m_window->minimumSizeHint().expandedTo(m_window->minimumSize());
      QVERIFY2(
          min.width() <= kSmallScreen.width() && min.height() <= kSmallScreen.height() - kDecorationHeight,
          qPrintable(QStringLiteral("%1×%1: minimum %2×%3").arg(k).arg(min.width()).arg(min.height())));
      m_window->resize(kSmallScreen.width(), kSmallScreen.height() - kDecorationHeight);
      QCoreApplication::processEvents();
      QCOMPARE(m_window->size(), QSize(kSmallScreen.width(), kSmallScreen.height() - kDecorationHeight));
    }
    // The statistics scroll instead of forcing the window taller.
    auto* statsDock = m_window->findChild<QDockWidget*>(QStringLiteral("statsDock"));
    QVERIFY(statsDock);
    QVERIFY(qobject_cast<QScrollArea*>(statsDock->widget()));
  }

  void bigKernelControlsAreInsideTheScrollableEditor() {
    m_window->resize(kSmallScreen.width(), kSmallScreen.height() - kDecorationHeight);
    m_window->document()->setSize(15);
    QCoreApplication::processEvents();
    ChannelGrid* g = m_window->editor()->grid(0);
    // Reset, Copy to all and Offset exist and are shown; the grid card is at least as wide as it needs
    // (the editor scrolls sideways when the dock is narrower).
    QVERIFY(g->copyToAllButton()->isVisible());
    QVERIFY(g->offsetBox()->isVisible());
    QVERIFY(g->width() >= g->minimumSizeHint().width());
    const QRect offset(g->offsetBox()->mapTo(g, QPoint(0, 0)), g->offsetBox()->size());
    QVERIFY(g->rect().contains(offset));
    // The dock widens to the 15×15 grid: nothing needs scrolling sideways at 1280×720.
    auto* scroll = m_window->editor()->findChild<QScrollArea*>();
    QVERIFY(scroll);
    QTRY_COMPARE(scroll->horizontalScrollBar()->maximum(), 0);
    const QRect card(g->mapTo(scroll->viewport(), QPoint(0, 0)), g->size());
    QVERIFY2(scroll->viewport()->rect().contains(card.topRight()),
             qPrintable(QStringLiteral("card right %1, viewport %2, editor min %3")
                            .arg(card.right())
                            .arg(scroll->viewport()->width())
                            .arg(m_window->editor()->minimumWidth())));
  }

  void f11TogglesFullScreen() {
    QAction* full = m_window->action(ActionId::FullScreen);
    QVERIFY(full);
    QVERIFY(full->shortcuts().contains(QKeySequence(Qt::Key_F11)));
    QVERIFY(!m_window->windowState().testFlag(Qt::WindowFullScreen));
    full->trigger();
    QTRY_VERIFY(m_window->windowState().testFlag(Qt::WindowFullScreen));
    QVERIFY(full->isChecked());
    full->trigger();
    QTRY_VERIFY(!m_window->windowState().testFlag(Qt::WindowFullScreen));
    QVERIFY(!full->isChecked());
    // The check mark follows the window whoever changes it (a window manager's own key).
    m_window->showFullScreen();
    QTRY_VERIFY(full->isChecked());
    full->trigger();  // decides by the real state: leaves full screen
    QTRY_VERIFY(!m_window->windowState().testFlag(Qt::WindowFullScreen));
  }

  void floatedDockComesToTheFront() {
    auto* dock = m_window->findChild<QDockWidget*>(QStringLiteral("filterDock"));
    QVERIFY(dock);
    // The offscreen platform has no stacking order to inspect: the dock counts the raises it asked for.
    auto raises = [dock] { return dock->property("convolabRaises").toInt(); };
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    dock->setFloating(true);
    QTRY_VERIFY(raises() > 0);
    QTRY_VERIFY(dock->isActiveWindow());
    // Hidden and shown again while floating (View menu): raised again.
    dock->hide();
    const int before = raises();
    dock->show();
    QTRY_VERIFY(raises() > before);
    dock->setFloating(false);
  }
};

CONVOLAB_GUI_TEST_MAIN(EditorWindowTest)
#include "test_editor_window.moc"
