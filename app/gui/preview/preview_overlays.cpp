// SPDX-License-Identifier: MIT
// The preview's overlay primitives (see preview_overlays.hpp).
#include "preview/preview_overlays.hpp"

#include <QFontMetricsF>
#include <QLineF>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "preview/preview_view.hpp"
#include "window/theme.hpp"

namespace convolab::gui {

QRectF drawPreviewPill(QPainter& p, const QRectF& bounds, const QPointF& anchor, const QString& text,
                       Qt::Alignment align, const QColor& bg) {
  // A long text is elided rather than cut off at the edge of `bounds`.
  const QFontMetricsF fm(p.font());
  const QString shown = fm.elidedText(text, Qt::ElideRight, std::max(0.0, bounds.width() - 20));
  const QSizeF size(std::min(fm.horizontalAdvance(shown) + 20, bounds.width()), fm.height() + 10);
  const QRectF box = placePill(size, anchor, align, bounds);
  p.setPen(Qt::NoPen);
  p.setBrush(bg);
  p.drawRoundedRect(box, size.height() / 2, size.height() / 2);
  p.setPen(theme::brightText());
  p.drawText(box, Qt::AlignCenter, shown);
  return box;
}

void drawPixelGrid(QPainter& p, const PreviewView& view) {
  if (!view.gridVisible()) return;
  const QRectF shown = view.visibleRect();
  if (shown.isEmpty()) return;
  // One widget pixel wide, on the first widget column (row) of each frame pixel: whole-pixel rectangles,
  // the same on every paint engine.
  const QPoint first = view.framePixel(shown.topLeft());
  const QPoint last = view.framePixel(shown.bottomRight() - QPointF(0.5, 0.5));
  const int top = static_cast<int>(std::floor(shown.top())),
            bottom = static_cast<int>(std::ceil(shown.bottom()));
  const int left = static_cast<int>(std::floor(shown.left())),
            right = static_cast<int>(std::ceil(shown.right()));
  p.save();
  p.setRenderHint(QPainter::Antialiasing, false);
  const QColor colour = theme::pixelGrid();
  for (int x = first.x() + 1; x <= last.x(); ++x)
    p.fillRect(QRect(static_cast<int>(std::round(view.toWidget(QPointF(x, 0)).x())), top, 1, bottom - top),
               colour);
  for (int y = first.y() + 1; y <= last.y(); ++y)
    p.fillRect(QRect(left, static_cast<int>(std::round(view.toWidget(QPointF(0, y)).y())), right - left, 1),
               colour);
  p.restore();
}

SplitSides splitSidesInView(const PreviewView& view, const QRectF& target) {
  // The original is left of (above) the divider, the filtered frame right of (below) it.
  const QLineF line = view.divider();
  const double at = view.splitVertical() ? line.y1() : line.x1();
  const double first = view.splitVertical() ? target.top() : target.left();
  const double last = view.splitVertical() ? target.bottom() : target.right();
  return {at > first, at < last};
}

void drawSplitDivider(QPainter& p, const PreviewView& view, const QRectF& target) {
  const bool vertical = view.splitVertical();
  const QLineF line = view.divider();
  p.setPen(QPen(theme::splitLine(), 2));
  p.drawLine(line);
  // The knob in the middle of the divider's part in view.
  const QPointF handle =
      vertical ? QPointF(target.center().x(), line.y1()) : QPointF(line.x1(), target.center().y());
  p.setBrush(theme::splitKnob());
  p.setPen(Qt::NoPen);
  p.drawEllipse(handle, 13, 13);
  p.setPen(QPen(theme::window(), 2));
  // Two arrowheads pointing along the axis the divider moves on.
  const auto arrow = [&](double along, double across) {
    return vertical ? QPointF(across, along) : QPointF(along, across);
  };
  p.drawLine(handle + arrow(-6, 0), handle + arrow(-2, -4));
  p.drawLine(handle + arrow(-6, 0), handle + arrow(-2, 4));
  p.drawLine(handle + arrow(6, 0), handle + arrow(2, -4));
  p.drawLine(handle + arrow(6, 0), handle + arrow(2, 4));
}

}  // namespace convolab::gui
