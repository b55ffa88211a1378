// SPDX-License-Identifier: MIT
// describeParseError: the parser's "line N, column M" as the editor shows it.
#include "parse_error_text.hpp"

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

}  // namespace convolab::gui
