// SPDX-License-Identifier: MIT
// Window chrome: full screen by F11 under any window manager, floated docks in front, docks that scroll.
#pragma once

#include <QList>
#include <QObject>
#include <QSize>

class QAction;
class QDockWidget;
class QMainWindow;
class QScrollArea;
class QStatusBar;
class QWidget;

namespace convolab::gui {

/// The smallest screen the main window must fit (its minimum size, with a title bar and a panel, fits
/// inside): 1280×720, so 1366×768 laptops too.
inline constexpr QSize kSmallScreen{1280, 720};

/// Makes `action` (checkable) toggle `window` between full screen and its previous state, by
/// showFullScreen()/showNormal() on the window's actual state; F11 and the platform's FullScreen key both
/// trigger it (QKeySequence::FullScreen alone is empty or Ctrl+Shift+F on plain window managers). The
/// check mark follows the window's state, whoever changed it.
void installFullScreenToggle(QMainWindow* window, QAction* action);

/// A dock that is floated, or shown again while floating, is raised and activated, so it never comes back
/// behind the main window.
void keepFloatingDockInFront(QDockWidget* dock);

/// Puts `content` in a frameless scroll area (vertical scrolling, horizontal as needed), so a dock can be
/// shorter than its content; the area is what goes into QDockWidget::setWidget.
QScrollArea* scrollableDockContent(QWidget* content);

/// While `bar` shows a message too long for the room beside its permanent widgets (the pixel inspector's
/// values and formula), the widgets in `yielding` step aside, first to last, until it fits; they come back
/// when the message goes. Widgets hidden for their own reasons stay hidden.
void makeRoomForMessages(QStatusBar* bar, const QList<QWidget*>& yielding);

}  // namespace convolab::gui
