// SPDX-License-Identifier: MIT
// FilterClipboard: the editor's filter on the clipboard — as plain text (copied, and pasted with the error's
// line and column) and as OpenCV C++ / Python snippets.
#pragma once

#include <QObject>
#include <QString>

namespace convolab::gui {

class FilterDocument;

class FilterClipboard : public QObject {
  Q_OBJECT

 public:
  explicit FilterClipboard(FilterDocument* document, QObject* parent = nullptr);

  // Without the clipboard (tests call these directly).
  /// Parses the plain-text form into the document; a refusal goes to message() with its line and column.
  bool pasteText(const QString& text);
  QString filterText() const;
  QString openCvCpp() const;
  QString openCvPython() const;

 public slots:
  void copyToClipboard();
  void pasteFromClipboard();
  void copyOpenCvCpp();
  void copyOpenCvPython();

 signals:
  /// Something worth a status-bar line ("Filter copied as text").
  void status(const QString& message);
  /// The editor's inline message: why a paste was refused, or empty once one succeeded.
  void message(const QString& message);

 private:
  FilterDocument* m_document;
};

}  // namespace convolab::gui
