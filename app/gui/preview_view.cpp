// SPDX-License-Identifier: MIT
#include "preview_view.hpp"

#include <algorithm>
#include <cmath>

namespace convolab::gui {

void PreviewView::setFit(bool fit) {
  m_fit = fit;
  m_pan = {};
}

void PreviewView::setSplit(double split) {
  m_split = std::clamp(split, 0.0, 1.0);
}

double PreviewView::scale() const {
  if (m_image.isEmpty()) return 1.0;
  if (!m_fit) return 1.0;
  const double w = std::max(0.0, m_viewport.width() - 2 * kFitMargin);
  const double h = std::max(0.0, m_viewport.height() - 2 * kFitMargin);
  return std::min(w / m_image.width(), h / m_image.height());
}

bool PreviewView::smoothSampling() const {
  return std::abs(scale() - 1.0) > 1e-9;
}

QRectF PreviewView::imageRect() const {
  if (m_image.isEmpty()) return {};
  const QSizeF size = QSizeF(m_image) * scale();
  const QPointF centre =
      QPointF(m_viewport.width() / 2, m_viewport.height() / 2) + (m_fit ? QPointF() : m_pan);
  QPointF topLeft = centre - QPointF(size.width() / 2, size.height() / 2);
  // At 1:1 a half-pixel offset would blend every pixel with its neighbour: keep the corner on the pixel grid.
  if (!m_fit) topLeft = QPointF(std::round(topLeft.x()), std::round(topLeft.y()));
  return {topLeft, size};
}

QPointF PreviewView::toFrame(const QPointF& pos) const {
  const QRectF r = imageRect();
  if (r.isEmpty()) return {};
  return {(pos.x() - r.left()) / r.width() * m_image.width(),
          (pos.y() - r.top()) / r.height() * m_image.height()};
}

QPointF PreviewView::toWidget(const QPointF& framePos) const {
  const QRectF r = imageRect();
  if (m_image.isEmpty()) return {};
  return {r.left() + framePos.x() * r.width() / m_image.width(),
          r.top() + framePos.y() * r.height() / m_image.height()};
}

QPoint PreviewView::framePixel(const QPointF& pos) const {
  const QRectF r = imageRect();
  if (r.isEmpty() || !r.contains(pos)) return {-1, -1};
  const QPointF f = toFrame(pos);
  return {std::clamp(static_cast<int>(f.x()), 0, m_image.width() - 1),
          std::clamp(static_cast<int>(f.y()), 0, m_image.height() - 1)};
}

double PreviewView::dividerX() const {
  const QRectF r = imageRect();
  return r.left() + m_split * r.width();
}

double PreviewView::splitAt(double x) const {
  const QRectF r = imageRect();
  if (r.width() <= 0) return m_split;
  return std::clamp((x - r.left()) / r.width(), 0.0, 1.0);
}

bool PreviewView::nearDivider(const QPointF& pos, double grab) const {
  const QRectF r = imageRect();
  if (r.isEmpty()) return false;
  return std::abs(pos.x() - dividerX()) <= grab && pos.y() >= r.top() && pos.y() <= r.bottom();
}

}  // namespace convolab::gui
