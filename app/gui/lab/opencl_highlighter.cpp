// SPDX-License-Identifier: MIT
// OpenClHighlighter: regular-expression rules per line, plus block comments spanning lines.
#include "opencl_highlighter.hpp"

#include <QColor>

#include "window/theme.hpp"

namespace convolab::lab {
namespace {
using gui::theme::Syntax;
using gui::theme::syntaxColor;

QTextCharFormat textFormat(const QColor& colour, bool bold = false, bool italic = false) {
  QTextCharFormat f;
  f.setForeground(colour);
  if (bold) f.setFontWeight(QFont::Bold);
  f.setFontItalic(italic);
  return f;
}
}  // namespace

OpenClHighlighter::OpenClHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {
  const QString keywords = QStringLiteral(
      "if|else|for|while|do|return|break|continue|switch|case|default|sizeof|typedef|struct|union|enum|"
      "const|restrict|volatile|static|inline|__attribute__|__kernel|kernel");
  const QString spaces = QStringLiteral(
      "__global|global|__local|local|__constant|constant|__private|private|__read_only|"
      "read_only|__write_only|write_only");
  const QString types = QStringLiteral(
      "void|bool|char|uchar|short|ushort|int|uint|long|ulong|float|double|half|size_t|ptrdiff_t|"
      "(?:char|uchar|short|ushort|int|uint|long|ulong|float|double)(?:2|3|4|8|16)|image2d_t|sampler_t");
  m_rules.push_back(
      {QRegularExpression(QStringLiteral("\\b(?:%1)\\b").arg(types)), textFormat(syntaxColor(Syntax::Type))});
  m_rules.push_back({QRegularExpression(QStringLiteral("\\b(?:%1)\\b").arg(keywords)),
                     textFormat(syntaxColor(Syntax::Keyword), true)});
  m_rules.push_back({QRegularExpression(QStringLiteral("\\b(?:%1)\\b").arg(spaces)),
                     textFormat(syntaxColor(Syntax::Qualifier), true)});
  m_rules.push_back({QRegularExpression(QStringLiteral(
                         "\\b(?:get_(?:global|local|group)_(?:id|size)|get_num_groups|barrier|mem_fence|"
                         "fma|mad|mix|clamp|min|max|abs|round|floor|ceil|convert_\\w+|vload\\w*|vstore\\w*|"
                         "read_image\\w*|write_image\\w*|CLK_\\w+)\\b")),
                     textFormat(syntaxColor(Syntax::Function))});
  m_rules.push_back(
      {QRegularExpression(QStringLiteral("\\b[0-9]+(?:\\.[0-9]*)?(?:[eE][-+]?[0-9]+)?[fFuUlL]*\\b|"
                                         "\\B\\.[0-9]+(?:[eE][-+]?[0-9]+)?[fF]?\\b")),
       textFormat(syntaxColor(Syntax::Number))});
  m_rules.push_back({QRegularExpression(QStringLiteral("^\\s*#\\s*\\w+")),
                     textFormat(syntaxColor(Syntax::Preprocessor), true)});
  m_rules.push_back(
      {QRegularExpression(QStringLiteral("\"[^\"]*\"")), textFormat(syntaxColor(Syntax::String))});
  m_comment = textFormat(syntaxColor(Syntax::Comment), false, true);
  m_rules.push_back({QRegularExpression(QStringLiteral("//[^\n]*")), m_comment});
}

void OpenClHighlighter::highlightBlock(const QString& text) {
  for (const Rule& rule : m_rules) {
    auto it = rule.pattern.globalMatch(text);
    while (it.hasNext()) {
      const auto m = it.next();
      setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()), rule.format);
    }
  }
  // Block comments: state 1 = inside a comment carried over from the previous line.
  setCurrentBlockState(0);
  qsizetype start = previousBlockState() == 1 ? 0 : text.indexOf(m_commentStart);
  while (start >= 0) {
    const auto end = m_commentEnd.match(text, start);
    qsizetype length;
    if (!end.hasMatch()) {
      setCurrentBlockState(1);
      length = text.length() - start;
    } else {
      length = end.capturedEnd() - start;
    }
    setFormat(static_cast<int>(start), static_cast<int>(length), m_comment);
    start = text.indexOf(m_commentStart, start + length);
  }
}

}  // namespace convolab::lab
