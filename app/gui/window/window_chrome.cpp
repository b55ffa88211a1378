// SPDX-License-Identifier: MIT
// Window-level behaviour shared by the main window: full screen toggle, dock raising, scrolling docks.
#include "window/window_chrome.hpp"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QFrame>
#include <QLayout>
#include <QMainWindow>
#include <QScrollArea>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>

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

void makeRoomForMessages(QStatusBar* bar, const QList<QWidget*>& yielding) {
  static constexpr const char* kYielded = "convolabYielded";
  auto update = [bar, yielding](const QString& message) {
    for (QWidget* w : yielding)  // back first: the room is measured with everything in place
      if (w->property(kYielded).toBool()) {
        w->setProperty(kYielded, false);
        w->show();
      }
    if (message.isEmpty()) return;
    // The message is drawn left of the permanent widgets, in the status bar's font, with a few pixels of
    // margin either side.
    const int need = bar->fontMetrics().horizontalAdvance(message) + 24;
    auto room = [bar] {
      int taken = 0;  // the permanent (and normal) widgets: the status bar's direct child widgets
      for (QWidget* w : bar->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
        if (w->isVisibleTo(bar)) taken += std::max(w->sizeHint().width(), w->minimumWidth()) + 8;
      return bar->width() - taken;
    };
    for (QWidget* w : yielding) {
      if (room() >= need) break;
      if (!w->isVisibleTo(bar)) continue;
      w->setProperty(kYielded, true);
      w->hide();
    }
  };
  QObject::connect(bar, &QStatusBar::messageChanged, bar, update);
}

}  // namespace convolab::gui
