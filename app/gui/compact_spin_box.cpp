// A spin box for filter numbers: shortest round-trip text, C locale regardless of the user's.
#include "compact_spin_box.hpp"

#include <QLocale>

namespace convolab::gui {

CompactSpinBox::CompactSpinBox(QWidget* parent) : QDoubleSpinBox(parent) {
  setDecimals(6);
  setRange(-1e6, 1e6);
  setKeyboardTracking(false);  // one change per Enter/step, not per keystroke
  setAccelerated(true);
  setLocale(QLocale::c());
  setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  setButtonSymbols(QAbstractSpinBox::NoButtons);  // arrows, Page keys and the wheel still step it
}

QString CompactSpinBox::textFromValue(double value) const {
  return QLocale::c().toString(value, 'g', 7);
}

double CompactSpinBox::valueFromText(const QString& text) const {
  return QLocale::c().toDouble(text.trimmed());
}

QValidator::State CompactSpinBox::validate(QString& text, int&) const {
  const QString t = text.trimmed();
  if (t.isEmpty() || t == QLatin1String("-") || t == QLatin1String("+") || t == QLatin1String(".") ||
      t.endsWith(QLatin1Char('e'), Qt::CaseInsensitive) ||
      t.endsWith(QLatin1String("e-"), Qt::CaseInsensitive))
    return QValidator::Intermediate;
  bool ok = false;
  const double v = QLocale::c().toDouble(t, &ok);
  if (!ok) return QValidator::Invalid;
  return v >= minimum() && v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
}

}  // namespace convolab::gui
