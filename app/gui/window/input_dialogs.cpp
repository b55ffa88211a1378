// SPDX-License-Identifier: MIT
#include "window/input_dialogs.hpp"

#include <QApplication>
#include <QInputDialog>
#include <algorithm>

namespace convolab::gui {

namespace {

// The title bar shows "TITLE — ConvoLab" beside three buttons: room for that text and ~150 px of buttons.
void fitTitle(QInputDialog& dialog) {
  const QString shown = dialog.windowTitle() + QStringLiteral(" — ") + QApplication::applicationDisplayName();
  dialog.setMinimumWidth(std::max(360, dialog.fontMetrics().horizontalAdvance(shown) + 150));
}

}  // namespace

int askInt(QWidget* parent, const QString& title, const QString& label, int value, int min, int max, int step,
           bool* ok) {
  QInputDialog dialog(parent);
  dialog.setWindowTitle(title);
  dialog.setLabelText(label);
  dialog.setInputMode(QInputDialog::IntInput);
  dialog.setIntRange(min, max);
  dialog.setIntStep(step);
  dialog.setIntValue(value);
  fitTitle(dialog);
  const bool accepted = dialog.exec() == QDialog::Accepted;
  if (ok) *ok = accepted;
  return accepted ? dialog.intValue() : value;
}

QString askText(QWidget* parent, const QString& title, const QString& label, const QString& text, bool* ok) {
  QInputDialog dialog(parent);
  dialog.setWindowTitle(title);
  dialog.setLabelText(label);
  dialog.setInputMode(QInputDialog::TextInput);
  dialog.setTextValue(text);
  fitTitle(dialog);
  const bool accepted = dialog.exec() == QDialog::Accepted;
  if (ok) *ok = accepted;
  return accepted ? dialog.textValue() : QString();
}

}  // namespace convolab::gui
