// SPDX-License-Identifier: MIT
// A spin box for filter numbers: shortest round-trip text, decimal comma and fractions accepted.
#include "editor/compact_spin_box.hpp"

#include <QFontMetrics>
#include <QLocale>
#include <QRegularExpression>
#include <charconv>

#include "convolab/filter_io.hpp"

namespace convolab::gui {

std::optional<double> parseUserNumber(const QString& text) {
  QString t = text.trimmed();
  t.replace(QChar(0x2212), QLatin1Char('-'));  // − (Unicode minus, as some fonts and sites type it)
  t.replace(QChar(0x2044), QLatin1Char('/'));  // ⁄ (fraction slash)
  t.replace(QChar(0x2215), QLatin1Char('/'));  // ∕ (division slash)
  t.remove(QLatin1Char(' '));
  return parseFilterNumber(t.toStdString(), /*decimalComma=*/true);
}

QString fullNumberText(double value) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, value);
  return QString::fromLatin1(buf, static_cast<int>(res.ptr - buf));
}

QString fittedNumberText(double value, const QFontMetrics& metrics, int width) {
  QString text = fullNumberText(value);
  auto fits = [&](const QString& t) { return metrics.horizontalAdvance(t) <= width; };
  for (int digits = 6; digits >= 1 && !fits(text); --digits) {
    text = QLocale::c().toString(value, 'g', digits);
    // Narrow cells (15×15) drop the leading zero before they drop digits: ".0044", "-.25".
    QString bare = text;
    if (bare.startsWith(QLatin1String("0.")))
      bare.remove(0, 1);
    else if (bare.startsWith(QLatin1String("-0.")))
      bare.remove(1, 1);
    if (!fits(text) && fits(bare)) return bare;
  }
  // Tiny values last: a short exponent form, "3e-4" rather than "0.0003" cut to "0.…".
  for (int digits = 2; digits >= 0 && !fits(text); --digits) {
    QString e = QLocale::c().toString(value, 'e', digits);  // "3.00e-04"
    e.replace(QRegularExpression(QStringLiteral("e([+-])0*(\\d)")), QStringLiteral("e\\1\\2"));
    e.replace(QLatin1String("e+"), QLatin1String("e"));
    if (fits(e)) return e;
  }
  return text;
}

CompactSpinBox::CompactSpinBox(QWidget* parent) : QDoubleSpinBox(parent) {
  setDecimals(15);  // the value keeps what was typed (1/9), not 6 decimals of it
  setRange(-1e6, 1e6);
  setKeyboardTracking(false);  // one change per Enter/step, not per keystroke
  setAccelerated(true);
  setLocale(QLocale::c());
  setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  setButtonSymbols(QAbstractSpinBox::NoButtons);  // arrows, Page keys and the wheel still step it
  setToolTip(tr("Numbers as 0.5, 0,5 or fractions such as 1/9"));
}

QString CompactSpinBox::textFromValue(double value) const {
  return fullNumberText(value);
}

double CompactSpinBox::valueFromText(const QString& text) const {
  QString t = text;
  if (!prefix().isEmpty() && t.startsWith(prefix())) t = t.mid(prefix().size());
  return parseUserNumber(t).value_or(value());
}

QValidator::State CompactSpinBox::validate(QString& text, int&) const {
  QString t = text;
  if (!prefix().isEmpty() && t.startsWith(prefix())) t = t.mid(prefix().size());
  t = t.trimmed();
  if (const auto v = parseUserNumber(t))
    return *v >= minimum() && *v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
  // Half-typed forms ("-", "1/", "0,", "2e-") may still become a number; anything else is refused.
  static const QString kAllowed = QStringLiteral("0123456789+-.,/eE \u2212");
  for (QChar c : t)
    if (!kAllowed.contains(c)) return QValidator::Invalid;
  return QValidator::Intermediate;
}

}  // namespace convolab::gui
