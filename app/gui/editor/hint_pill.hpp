// SPDX-License-Identifier: MIT
// HintPill: a one-line hint in a pill (the filter editor's first-start hint above the grids), with a × that
// dismisses it.
#pragma once

#include <QFrame>

class QLabel;

namespace convolab::gui {

class HintPill : public QFrame {
  Q_OBJECT

 public:
  /// Hidden until showText() gives it something to say.
  explicit HintPill(QWidget* parent = nullptr);

  QLabel* label() const { return m_text; }
  /// Shows `text` (empty: hides the pill).
  void showText(const QString& text);

 private:
  QLabel* m_text;
};

}  // namespace convolab::gui
