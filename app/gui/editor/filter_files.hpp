// SPDX-License-Identifier: MIT
// FilterFiles: the editor's import and export — JSON filter files and ImageJ kernel text, with or without a
// file dialog, and the folders they open in.
#pragma once

#include <QObject>
#include <QString>

class QWidget;

namespace convolab::gui {

class FilterDocument;

class FilterFiles : public QObject {
  Q_OBJECT

 public:
  /// The file dialogs open over `dialogParent`, which also owns this object.
  FilterFiles(FilterDocument* document, QWidget* dialogParent);

  // Operations without dialogs (menus call these after asking; tests call them directly). A refusal goes to
  // message().
  /// A filter file; one whose step is custom OpenCL goes to the Custom OpenCL panel (customStepImported), a
  /// chain of several steps or a magnitude to the Chain dock (chainImported).
  bool importFile(const QString& path);
  /// Saves JSON atomically; refuses an existing file unless `overwrite`.
  bool exportFile(const QString& path, bool overwrite);
  /// ImageJ kernel text (.txt): rows of weights. Import normalises as ImageJ's default does (divisor = Σ
  /// when Σ ≠ 0 and the file gives no divisor); export writes channel R's matrix / divisor.
  bool importImageJKernel(const QString& path);
  bool exportImageJKernel(const QString& path);

  /// Where Export Filter (and Export ImageJ Kernel) open: the folder last exported to, else Documents.
  QString exportDir() const;
  void setExportDir(const QString& dir) { m_exportDir = dir; }

 public slots:
  void importWithDialog();
  void exportWithDialog();
  void importImageJWithDialog();
  void exportImageJWithDialog();

 signals:
  /// Something worth a status-bar line ("Imported …").
  void status(const QString& message);
  /// The editor's inline message: why an import or export was refused (or what it lost), or empty once one
  /// succeeded.
  void message(const QString& message);
  /// A filter or kernel was exported into `dir` (the main window remembers it).
  void exportDirChosen(const QString& dir);
  /// importFile() read a filter file with a custom OpenCL step (`path`): the Custom OpenCL panel opens it.
  void customStepImported(const QString& path);
  /// importFile() read a chain file the editor cannot hold (several steps, a magnitude): the Chain dock opens
  /// it.
  void chainImported(const QString& path);

 private:
  QString chooseExportPath(const QString& title, const QString& fallbackName, const QString& ext,
                           const QString& filterText);

  FilterDocument* m_document;
  QWidget* m_dialogParent;
  QString m_lastDir;    // import
  QString m_exportDir;  // export; empty: Documents
};

}  // namespace convolab::gui
