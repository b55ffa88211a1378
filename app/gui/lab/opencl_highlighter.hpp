// SPDX-License-Identifier: MIT
// OpenClHighlighter: OpenCL C syntax highlighting (keywords, types, address spaces, builtins, numbers,
// strings, preprocessor lines, comments) for the kernel source view.
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace convolab::lab {

class OpenClHighlighter : public QSyntaxHighlighter {
  Q_OBJECT

 public:
  explicit OpenClHighlighter(QTextDocument* document);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  std::vector<Rule> m_rules;
  QTextCharFormat m_comment;
  QRegularExpression m_commentStart{QStringLiteral("/\\*")};
  QRegularExpression m_commentEnd{QStringLiteral("\\*/")};
};

}  // namespace convolab::lab
