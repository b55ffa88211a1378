// SPDX-License-Identifier: MIT
// Small input dialogs (a number, a name) wide enough that the window manager never cuts their title
// ("JPEG q…voLab" was QInputDialog's own size under a title bar that also carries the application's name).
#pragma once

#include <QString>

class QWidget;

namespace convolab::gui {

/// QInputDialog::getInt, at least as wide as its title needs. `ok` false: cancelled.
int askInt(QWidget* parent, const QString& title, const QString& label, int value, int min, int max, int step,
           bool* ok);
/// QInputDialog::getText (a normal line edit), at least as wide as its title needs.
QString askText(QWidget* parent, const QString& title, const QString& label, const QString& text, bool* ok);

}  // namespace convolab::gui
