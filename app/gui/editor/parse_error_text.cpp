// SPDX-License-Identifier: MIT
// describeParseError: the parser's "line N, column M" as the editor shows it.
#include "editor/parse_error_text.hpp"

#include <QObject>
#include <QRegularExpression>

namespace convolab::gui {

QString describeParseError(const QString& message, const QString& prefix) {
  static const QRegularExpression kWhere(QStringLiteral("line (\\d+)(?:, column (\\d+))?: (.*)$"));
  const auto m = kWhere.match(message);
  if (m.hasMatch()) {
    QString where = QObject::tr("Line %1").arg(m.captured(1));
    if (!m.captured(2).isEmpty()) where += QObject::tr(", column %1").arg(m.captured(2));
    return prefix + where + QStringLiteral(": ") + m.captured(3);
  }
  QString text = message;
  text.remove(QRegularExpression(QStringLiteral("^<clipboard>: ")));
  return prefix + text;
}

QString withoutParserJargon(const QString& message) {
  // nlohmann_json's "[json.exception.parse_error.101] parse error at line 1, column 35: syntax error while
  // parsing value - unexpected '}'; expected '[', '{', or a literal" → "at line 1, column 35: unexpected '}'"
  // (issue 33.10: a bad JSON file's message leaked the parser's text).
  static const QRegularExpression kJson(QStringLiteral(
      R"(\[json\.exception\.[a-z_]+\.\d+\] (?:parse error(?: at line (\d+), column (\d+))?: )?)"
      R"((?:syntax error while parsing [a-z ]+ - )?([^;]*)(?:;[^\n]*)?)"));
  QString text = message;
  const auto m = kJson.match(text);
  if (!m.hasMatch()) return text;
  QString plain = m.captured(3).trimmed();
  if (!m.captured(1).isEmpty())
    plain = QObject::tr("at line %1, column %2: %3").arg(m.captured(1), m.captured(2), plain);
  text.replace(m.capturedStart(), m.capturedLength(), plain);
  return text;
}

}  // namespace convolab::gui
