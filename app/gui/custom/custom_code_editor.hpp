// SPDX-License-Identifier: MIT
// CustomCodeEditor: the OpenCL editor of the Custom OpenCL panel — highlighting, line numbers, the compiler's
// errors and warnings underlined on their lines (with the message as the line's tooltip), Ctrl+Enter to run.
#pragma once

#include <QPlainTextEdit>
#include <map>
#include <vector>

#include "convolab/custom_kernel.hpp"

namespace convolab::gui {

class CustomCodeEditor : public QPlainTextEdit {
  Q_OBJECT

 public:
  explicit CustomCodeEditor(QWidget* parent = nullptr);

  /// Underlines the diagnostics' lines (errors red, warnings amber) and marks them beside their numbers.
  /// Line 0 (the wrapper) is not in the text: it is only listed under the editor.
  void setDiagnostics(const std::vector<KernelDiagnostic>& diagnostics);
  /// The messages about 1-based `line`, one per line of text (the tooltip there); empty when none.
  QString messagesAt(int line) const;
  /// Puts the cursor at the start of 1-based `line` (column when known) and shows it.
  void goToLine(int line, int column = 0);
  /// Replaces the whole text as one undoable edit (an example or a file: Ctrl+Z brings the old code back).
  void replaceText(const QString& text);

  int lineNumberAreaWidth() const;
  void paintLineNumbers(QPaintEvent* event);

 signals:
  /// Ctrl+Enter: try the code now.
  void runRequested();

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;

 private:
  void updateMargins();
  void scrollLineNumbers(const QRect& rect, int dy);
  void applyUnderlines();

  QWidget* m_lineNumbers;
  std::vector<KernelDiagnostic> m_diagnostics;
  std::map<int, bool> m_marked;  // 1-based line → has an error (else warnings only)
};

}  // namespace convolab::gui
