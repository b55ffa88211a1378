// SPDX-License-Identifier: MIT
// The Help menu's windows: the user guide (docs/USER_GUIDE.md and its pictures, compiled into the binary so
// it opens from the build tree, installed and offline) and a scrolling HTML dialog (the F1 shortcut list,
// What Is This Strategy?) that fits a 1366×768 screen.
#pragma once

#include <QString>

class QDialog;
class QWidget;

namespace convolab::gui {

/// The resource the guide is compiled into (resources/help.qrc: docs/USER_GUIDE.md), and the folder its
/// pictures (`guide/NAME.png`) are found under.
inline constexpr const char* kManualResource = ":/manual/USER_GUIDE.md";
inline constexpr const char* kManualFolder = ":/manual";

/// The guide's Markdown. Empty when the resource is missing.
QString manualMarkdown();

/// Opens Help ▸ User Manual: a non-modal window with the guide in a QTextBrowser (setMarkdown, its pictures
/// drawn from the resources) and a find box (Enter: next match); raises the one already open. Returns it.
QDialog* showManual(QWidget* parent);

/// A non-modal dialog named `objectName` showing `html` `width` pixels wide, as tall as the text up to 90 %
/// of the screen (then it scrolls); reused (and raised) when one of that name is already open under `parent`.
QDialog* showHtmlDialog(QWidget* parent, const QString& objectName, const QString& title, const QString& html,
                        int width = 740);

}  // namespace convolab::gui
