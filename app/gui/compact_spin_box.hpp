// CompactSpinBox: a QDoubleSpinBox that shows "9" rather than "9.000000" and accepts C-locale numbers.
#pragma once

#include <QDoubleSpinBox>

namespace convolab::gui {

class CompactSpinBox : public QDoubleSpinBox {
  Q_OBJECT

 public:
  explicit CompactSpinBox(QWidget* parent = nullptr);

  QString textFromValue(double value) const override;
  double valueFromText(const QString& text) const override;
  QValidator::State validate(QString& text, int& pos) const override;
};

}  // namespace convolab::gui
