// SPDX-License-Identifier: MIT
// A label that draws its text elided to its width.
#include "window/elided_label.hpp"

#include <QPainter>
#include <QStyle>

namespace convolab::gui {

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent) {
  setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

QSize ElidedLabel::minimumSizeHint() const {
  ensurePolished();
  return {fontMetrics().horizontalAdvance(QStringLiteral("Wwww…")), QLabel::minimumSizeHint().height()};
}

QString ElidedLabel::shownText() const {
  return fontMetrics().elidedText(text(), Qt::ElideRight, std::max(0, contentsRect().width()));
}

void ElidedLabel::paintEvent(QPaintEvent*) {
  QPainter p(this);
  style()->drawItemText(&p, contentsRect(), static_cast<int>(alignment() | Qt::TextSingleLine), palette(),
                        isEnabled(), shownText(), foregroundRole());
}

}  // namespace convolab::gui
