// SPDX-License-Identifier: MIT
// Window-level behaviour shared by the main window: full screen toggle, dock raising, scrolling docks.
#include "window_chrome.hpp"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QFrame>
#include <QMainWindow>
#include <QScrollArea>
#include <QTimer>

namespace convolab::gui {

namespace {

// Keeps the action's check mark equal to the window's full-screen state.
class FullScreenWatcher : public QObject {
 public:
  FullScreenWatcher(QMainWindow* window, QAction* action)
      : QObject(window), m_window(window), m_action(action) {
    window->installEventFilter(this);
  }

  bool eventFilter(QObject* watched, QEvent* event) override {
    if (watched == m_window && event->type() == QEvent::WindowStateChange) {
      const QSignalBlocker block(m_action);
      m_action->setChecked(m_window->windowState().testFlag(Qt::WindowFullScreen));
    }
    return QObject::eventFilter(watched, event);
  }

 private:
  QMainWindow* m_window;
  QAction* m_action;
};

}  // namespace

void installFullScreenToggle(QMainWindow* window, QAction* action) {
  action->setCheckable(true);
  QList<QKeySequence> keys{QKeySequence(Qt::Key_F11)};
  for (const QKeySequence& k : QKeySequence::keyBindings(QKeySequence::FullScreen))
    if (!k.isEmpty() && !keys.contains(k)) keys << k;
  action->setShortcuts(keys);
  action->setShortcutContext(Qt::ApplicationShortcut);  // also while a floated dock has the focus
  new FullScreenWatcher(window, action);
  QObject::connect(action, &QAction::triggered, window, [window, action] {
    // Decide by the window's real state: the check mark may be stale if the window manager changed it.
    if (window->windowState().testFlag(Qt::WindowFullScreen)) {
      const bool wasMaximized = window->property("convolabWasMaximized").toBool();
      wasMaximized ? window->showMaximized() : window->showNormal();
    } else {
      window->setProperty("convolabWasMaximized", window->isMaximized());
      window->showFullScreen();
    }
    const QSignalBlocker block(action);
    action->setChecked(window->windowState().testFlag(Qt::WindowFullScreen));
  });
}

void keepFloatingDockInFront(QDockWidget* dock) {
  auto raise = [dock] {
    if (!dock->isFloating() || !dock->isVisible()) return;
    dock->raise();
    dock->activateWindow();
    // Counted, so tests can see the raise happened (offscreen has no stacking order to inspect).
    dock->setProperty("convolabRaises", dock->property("convolabRaises").toInt() + 1);
  };
  // After the event loop turn: the window manager maps the new top-level window first.
  QObject::connect(dock, &QDockWidget::topLevelChanged, dock, [dock, raise](bool floating) {
    if (floating) QTimer::singleShot(0, dock, raise);
  });
  QObject::connect(dock, &QDockWidget::visibilityChanged, dock, [dock, raise](bool visible) {
    if (visible) QTimer::singleShot(0, dock, raise);
  });
}

QScrollArea* scrollableDockContent(QWidget* content) {
  auto* scroll = new QScrollArea;
  scroll->setObjectName(content->objectName() + QStringLiteral("Scroll"));
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  scroll->setWidget(content);
  return scroll;
}

}  // namespace convolab::gui
