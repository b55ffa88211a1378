// SPDX-License-Identifier: MIT
// The Save As dialogs' shared part (the Chain dock's and the Custom OpenCL panel's): the file dialog asks
// before replacing the name it returns, but not before replacing the name we complete with the file ending.
#pragma once

#include <QString>

class QWidget;

namespace convolab::gui {

/// QFileDialog::getSaveFileName(parent, title, suggested, filter), then completeSavePath. Empty: cancelled.
QString askSavePath(QWidget* parent, const QString& title, const QString& suggested, const QString& filter,
                    const QString& suffix);

/// `path` with `suffix` (".json", any case) added when it lacks it; a file of that completed name is replaced
/// only when the user says so ("Replace file?"). Empty: the user declined.
QString completeSavePath(QWidget* parent, QString path, const QString& suffix);

}  // namespace convolab::gui
