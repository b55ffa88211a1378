// SPDX-License-Identifier: MIT
// CompactSpinBox: a QDoubleSpinBox that shows "9" rather than "9.000000" and accepts numbers as people type
// them (0.5, 0,5, 1/9); plus the number parsing and formatting the editor's cells share with it.
#pragma once

#include <QDoubleSpinBox>
#include <optional>

class QFontMetrics;

namespace convolab::gui {

/// A number typed by a person: `0.5`, `0,5` (decimal comma), `1/9`, `-2/16`, `1e-3`, `−1` (Unicode minus).
/// nullopt for anything else — never a partial read such as "0,5" → 5 or "1/9" → 19.
std::optional<double> parseUserNumber(const QString& text);
/// The shortest text that reads back as exactly `value` ("0.1111111111111111").
QString fullNumberText(double value);
/// `value` in at most `width` pixels: the full text when it fits, else fewer significant digits.
QString fittedNumberText(double value, const QFontMetrics& metrics, int width);

class CompactSpinBox : public QDoubleSpinBox {
  Q_OBJECT

 public:
  explicit CompactSpinBox(QWidget* parent = nullptr);

  QString textFromValue(double value) const override;
  double valueFromText(const QString& text) const override;
  QValidator::State validate(QString& text, int& pos) const override;
};

}  // namespace convolab::gui
