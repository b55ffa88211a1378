// SPDX-License-Identifier: MIT
// CustomParamDialog: adds or edits one parameter of a custom kernel (name, range, value). It stays open with
// the reason while the controller refuses what was typed, so nothing typed is lost.
#pragma once

#include <QDialog>
#include <functional>

#include "convolab/custom_kernel.hpp"

class QDoubleSpinBox;
class QLabel;
class QLineEdit;

namespace convolab::gui {

class CustomParamDialog : public QDialog {
  Q_OBJECT

 public:
  /// `apply` takes the parameter and returns why not (empty: taken, the dialog closes).
  using Apply = std::function<QString(const CustomParam& param)>;
  CustomParamDialog(const CustomParam& initial, Apply apply, QWidget* parent = nullptr);

  CustomParam param() const;
  /// Fills the fields (tests, and the dialog's own set-up).
  void setParam(const CustomParam& param);
  QString error() const;

  void accept() override;

 private:
  Apply m_apply;
  QLineEdit* m_name;
  QDoubleSpinBox* m_min;
  QDoubleSpinBox* m_max;
  QDoubleSpinBox* m_value;
  QLabel* m_error;
};

}  // namespace convolab::gui
