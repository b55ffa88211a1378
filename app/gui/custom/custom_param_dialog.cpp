// SPDX-License-Identifier: MIT
// The parameter dialog: a form, and the controller's verdict under it.
#include "custom_param_dialog.hpp"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "window/theme.hpp"

namespace convolab::gui {
namespace {

QDoubleSpinBox* numberBox(QWidget* parent) {
  auto* box = new QDoubleSpinBox(parent);
  box->setRange(-1e6, 1e6);
  box->setDecimals(3);
  return box;
}

}  // namespace

CustomParamDialog::CustomParamDialog(const CustomParam& initial, Apply apply, QWidget* parent)
    : QDialog(parent), m_apply(std::move(apply)) {
  setObjectName(QStringLiteral("customParamDialog"));
  setWindowTitle(initial.name.empty() ? tr("Add Parameter") : tr("Edit Parameter"));
  m_name = new QLineEdit(this);
  m_name->setPlaceholderText(tr("e.g. level"));
  m_name->setToolTip(tr("The name your code reads it by: letters, digits and _, not starting with a digit"));
  m_min = numberBox(this);
  m_max = numberBox(this);
  m_value = numberBox(this);
  m_error = new QLabel(this);
  m_error->setWordWrap(true);
  m_error->setStyleSheet(theme::textStyle(theme::danger()));
  m_error->hide();
  auto* form = new QFormLayout;
  form->addRow(tr("Name:"), m_name);
  form->addRow(tr("Minimum:"), m_min);
  form->addRow(tr("Maximum:"), m_max);
  form->addRow(tr("Value:"), m_value);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(m_error);
  layout->addWidget(buttons);
  setMinimumWidth(360);
  setParam(initial);
}

void CustomParamDialog::setParam(const CustomParam& param) {
  m_name->setText(QString::fromStdString(param.name));
  m_min->setValue(param.min);
  m_max->setValue(param.max);
  m_value->setValue(param.value);
}

CustomParam CustomParamDialog::param() const {
  return {m_name->text().trimmed().toStdString(), m_min->value(), m_max->value(), m_value->value()};
}

QString CustomParamDialog::error() const {
  return m_error->isHidden() ? QString() : m_error->text();
}

void CustomParamDialog::accept() {
  const QString why = m_apply ? m_apply(param()) : QString();
  if (why.isEmpty()) return QDialog::accept();
  m_error->setText(why);
  m_error->show();
}

}  // namespace convolab::gui
