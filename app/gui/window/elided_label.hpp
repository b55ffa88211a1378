// SPDX-License-Identifier: MIT
// ElidedLabel: a one-line label that draws its text shortened with "…" to the width it is given, so a long
// text (a filter's name) never widens the row it sits in (issue 33.5: "Gaussian blur" pushed the Filter dock
// into a sideways scroll at 1366×768, cutting Reset, the size box and Offset). text() stays the whole text.
#pragma once

#include <QLabel>

namespace convolab::gui {

class ElidedLabel : public QLabel {
  Q_OBJECT

 public:
  explicit ElidedLabel(QWidget* parent = nullptr);

  /// Room for a few letters and the ellipsis: the rest of the row decides the width.
  QSize minimumSizeHint() const override;
  /// What is drawn now: text(), elided to the label's width.
  QString shownText() const;

 protected:
  void paintEvent(QPaintEvent* event) override;
};

}  // namespace convolab::gui
