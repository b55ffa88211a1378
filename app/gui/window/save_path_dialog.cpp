// SPDX-License-Identifier: MIT
#include "window/save_path_dialog.hpp"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace convolab::gui {

QString askSavePath(QWidget* parent, const QString& title, const QString& suggested, const QString& filter,
                    const QString& suffix) {
  const QString path = QFileDialog::getSaveFileName(parent, title, suggested, filter);
  return path.isEmpty() ? QString() : completeSavePath(parent, path, suffix);
}

QString completeSavePath(QWidget* parent, QString path, const QString& suffix) {
  if (path.endsWith(suffix, Qt::CaseInsensitive)) return path;  // the dialog asked about this name
  path += suffix;
  if (QFileInfo::exists(path) &&
      QMessageBox::question(parent, QObject::tr("Replace file?"),
                            QObject::tr("%1 already exists. Replace it?").arg(path)) != QMessageBox::Yes)
    return {};
  return path;
}

}  // namespace convolab::gui
