// SPDX-License-Identifier: MIT
// The custom kernel's editor: Qt's code-editor pattern (a line-number margin painted by the editor) with the
// compiler's diagnostics as wavy underlines, margin marks and tooltips.
#include "custom_code_editor.hpp"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

#include "lab/opencl_highlighter.hpp"
#include "window/theme.hpp"

namespace convolab::gui {
namespace {

/// The margin left of the text: the editor paints it.
class LineNumberArea : public QWidget {
 public:
  explicit LineNumberArea(CustomCodeEditor* editor) : QWidget(editor), m_editor(editor) {}
  QSize sizeHint() const override { return {m_editor->lineNumberAreaWidth(), 0}; }

 protected:
  void paintEvent(QPaintEvent* event) override { m_editor->paintLineNumbers(event); }

 private:
  CustomCodeEditor* m_editor;
};

constexpr int kMarkWidth = 8;  // the error/warning mark left of the numbers

}  // namespace

CustomCodeEditor::CustomCodeEditor(QWidget* parent)
    : QPlainTextEdit(parent), m_lineNumbers(new LineNumberArea(this)) {
  setObjectName(QStringLiteral("customCodeEditor"));
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  // Not wrapped, as code editors are: a wrapped line ("centre," on a line of its own) reads as two, and its
  // line number no longer matches what the compiler counts. A long line scrolls sideways; going to a
  // diagnostic's line and column scrolls it into view (setTextCursor).
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2);
  new lab::OpenClHighlighter(document());
  connect(this, &QPlainTextEdit::blockCountChanged, this, &CustomCodeEditor::updateMargins);
  connect(this, &QPlainTextEdit::updateRequest, this, &CustomCodeEditor::scrollLineNumbers);
  updateMargins();
}

int CustomCodeEditor::lineNumberAreaWidth() const {
  const int digits = QString::number(std::max(1, blockCount())).size();
  return kMarkWidth + 6 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(2, digits);
}

void CustomCodeEditor::updateMargins() {
  setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
}

void CustomCodeEditor::scrollLineNumbers(const QRect& rect, int dy) {
  if (dy)
    m_lineNumbers->scroll(0, dy);
  else
    m_lineNumbers->update(0, rect.y(), m_lineNumbers->width(), rect.height());
}

void CustomCodeEditor::resizeEvent(QResizeEvent* event) {
  QPlainTextEdit::resizeEvent(event);
  const QRect r = contentsRect();
  m_lineNumbers->setGeometry(QRect(r.left(), r.top(), lineNumberAreaWidth(), r.height()));
}

void CustomCodeEditor::paintLineNumbers(QPaintEvent* event) {
  QPainter p(m_lineNumbers);
  p.fillRect(event->rect(), theme::panel());
  QTextBlock block = firstVisibleBlock();
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  const int h = fontMetrics().height();
  while (block.isValid() && top <= event->rect().bottom()) {
    const int line = block.blockNumber() + 1;
    if (block.isVisible() && top + h >= event->rect().top()) {
      if (auto it = m_marked.find(line); it != m_marked.end()) {
        p.setPen(Qt::NoPen);
        p.setBrush(it->second ? theme::danger() : theme::warning());
        p.drawEllipse(QRectF(2, top + (h - 6) / 2.0, 6, 6));
      }
      p.setPen(m_marked.count(line) ? theme::text() : theme::faintText());
      p.drawText(0, top, m_lineNumbers->width() - 4, h, Qt::AlignRight | Qt::AlignVCenter,
                 QString::number(line));
    }
    top += qRound(blockBoundingRect(block).height());
    block = block.next();
  }
}

void CustomCodeEditor::setDiagnostics(const std::vector<KernelDiagnostic>& diagnostics) {
  m_diagnostics = diagnostics;
  m_marked.clear();
  for (const KernelDiagnostic& d : diagnostics)
    if (d.line > 0) m_marked[d.line] = m_marked[d.line] || d.isError;
  applyUnderlines();
  m_lineNumbers->update();
}

void CustomCodeEditor::applyUnderlines() {
  QList<QTextEdit::ExtraSelection> selections;
  for (const auto& [line, isError] : m_marked) {
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid()) continue;
    QTextEdit::ExtraSelection s;
    s.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    s.format.setUnderlineColor(isError ? theme::danger() : theme::warning());
    s.cursor = QTextCursor(block);
    // From the first non-blank character: an underline under indentation reads as noise.
    int first = 0;
    while (first < block.text().size() && block.text().at(first).isSpace()) ++first;
    s.cursor.setPosition(block.position() + first);
    s.cursor.setPosition(block.position() + std::max<int>(first + 1, block.text().size()),
                         QTextCursor::KeepAnchor);
    selections << s;
  }
  setExtraSelections(selections);
}

QString CustomCodeEditor::messagesAt(int line) const {
  QStringList lines;
  for (const KernelDiagnostic& d : m_diagnostics)
    if (d.line == line)
      lines << (d.isError ? tr("error: %1") : tr("warning: %1")).arg(QString::fromStdString(d.message));
  return lines.join(QLatin1Char('\n'));
}

void CustomCodeEditor::goToLine(int line, int column) {
  const QTextBlock block = document()->findBlockByNumber(std::max(line, 1) - 1);
  if (!block.isValid()) return;
  QTextCursor cursor(block);
  cursor.setPosition(block.position() + std::clamp(column - 1, 0, static_cast<int>(block.text().size())));
  setTextCursor(cursor);
  centerCursor();
  setFocus();
}

void CustomCodeEditor::replaceText(const QString& text) {
  QTextCursor cursor(document());
  cursor.select(QTextCursor::Document);
  cursor.insertText(text);  // one edit on the undo stack
}

void CustomCodeEditor::keyPressEvent(QKeyEvent* event) {
  const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
  if (enter && (event->modifiers() & Qt::ControlModifier)) {
    emit runRequested();
    return;
  }
  QPlainTextEdit::keyPressEvent(event);
}

bool CustomCodeEditor::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QPoint inViewport = viewport()->mapFromGlobal(help->globalPos());
    const QString text = messagesAt(cursorForPosition(inViewport).blockNumber() + 1);
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return QPlainTextEdit::event(event);
}

}  // namespace convolab::gui
