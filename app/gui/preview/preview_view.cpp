// SPDX-License-Identifier: MIT
#include "preview/preview_view.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace convolab::gui {

namespace {

// The steps of Zoom In / Out and the wheel (widget pixels per frame pixel).
constexpr std::array kZoomSteps = {1.0 / 16, 1.0 / 12, 1.0 / 8, 1.0 / 6, 1.0 / 4, 1.0 / 3, 1.0 / 2,
                                   2.0 / 3,  1.0,      1.5,     2.0,     3.0,     4.0,     6.0,
                                   8.0,      12.0,     16.0,    24.0,    32.0};

}  // namespace

void PreviewView::setViewportSize(const QSizeF& size) {
  m_viewport = size;
  clampPan();
}

void PreviewView::setImageSize(const QSize& size) {
  m_image = size;
  clampPan();
}

void PreviewView::setFit(bool fit) {
  m_fit = fit;
  m_zoom = 1.0;
  m_pan = {};
}

void PreviewView::setPan(const QPointF& pan) {
  m_pan = pan;
  clampPan();
}

void PreviewView::clampPan() {
  if (m_fit || m_image.isEmpty()) return;
  const double s = scale();
  // Per axis: at least kKeepVisible widget pixels of the frame (all of it when it is smaller) stay in view.
  const auto limit = [](double view, double size) {
    const double keep = std::min({kKeepVisible, size, view});
    return std::max(0.0, (view + size) / 2 - keep);
  };
  const double lx = limit(m_viewport.width(), m_image.width() * s);
  const double ly = limit(m_viewport.height(), m_image.height() * s);
  m_pan = {std::clamp(m_pan.x(), -lx, lx), std::clamp(m_pan.y(), -ly, ly)};
}

void PreviewView::zoomAt(double zoom, const QPointF& anchor) {
  if (m_image.isEmpty()) {
    m_fit = false;
    m_zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    m_pan = {};
    return;
  }
  // From the unsnapped corner: the snap (under half a pixel) must not add up over a run of wheel steps.
  const double before = scale();
  const QPointF centre = QPointF(m_viewport.width(), m_viewport.height()) / 2 + (m_fit ? QPointF() : m_pan);
  const QPointF corner = centre - QPointF(m_image.width(), m_image.height()) * before / 2;
  const QPointF at = (anchor - corner) / before;
  m_fit = false;
  m_zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
  // The frame's corner that puts `at` under `anchor`, as an offset from the centred position.
  const QPointF topLeft = anchor - at * m_zoom;
  const QPointF centred = QPointF(m_viewport.width() - m_image.width() * m_zoom,
                                  m_viewport.height() - m_image.height() * m_zoom) /
                          2;
  m_pan = topLeft - centred;
  clampPan();
}

void PreviewView::zoomIn(const QPointF& anchor) {
  const double now = scale();
  for (const double step : kZoomSteps)
    if (step > now * (1 + 1e-6)) return zoomAt(step, anchor);
  zoomAt(kMaxZoom, anchor);
}

void PreviewView::zoomOut(const QPointF& anchor) {
  const double now = scale();
  for (auto it = kZoomSteps.rbegin(); it != kZoomSteps.rend(); ++it)
    if (*it < now * (1 - 1e-6)) return zoomAt(*it, anchor);
  zoomAt(kMinZoom, anchor);
}

void PreviewView::setSplit(double split) {
  m_split = std::clamp(split, 0.0, 1.0);
}

double PreviewView::fitScale() const {
  if (m_image.isEmpty()) return 1.0;
  const double w = std::max(0.0, m_viewport.width() - 2 * kFitMargin);
  const double h = std::max(0.0, m_viewport.height() - 2 * kFitMargin);
  return std::min(w / m_image.width(), h / m_image.height());
}

double PreviewView::scale() const {
  if (m_image.isEmpty()) return 1.0;
  return m_fit ? fitScale() : m_zoom;
}

bool PreviewView::smoothSampling() const {
  if (m_fit) return std::abs(scale() - 1.0) > 1e-9;
  return m_zoom < 1.0 - 1e-9;
}

bool PreviewView::gridVisible() const {
  return !m_image.isEmpty() && !m_fit && m_zoom >= kGridZoom - 1e-9;
}

QString PreviewView::zoomText() const {
  const double percent = scale() * 100;
  const QString number = percent >= 100 || std::abs(percent - std::round(percent)) < 0.05
                             ? QString::number(std::round(percent))
                             : QString::number(percent, 'f', 1);
  return m_fit ? QStringLiteral("Fit %1 %").arg(number) : QStringLiteral("%1 %").arg(number);
}

QRectF PreviewView::imageRect() const {
  if (m_image.isEmpty()) return {};
  const QSizeF size = QSizeF(m_image) * scale();
  const QPointF centre =
      QPointF(m_viewport.width() / 2, m_viewport.height() / 2) + (m_fit ? QPointF() : m_pan);
  QPointF topLeft = centre - QPointF(size.width() / 2, size.height() / 2);
  // A half-pixel offset would blend every pixel with its neighbour at 100 % and put the pixel grid between
  // widget pixels when zoomed: keep the corner on the pixel grid.
  if (!m_fit) topLeft = QPointF(std::round(topLeft.x()), std::round(topLeft.y()));
  return {topLeft, size};
}

QRectF PreviewView::visibleRect() const {
  return imageRect().intersected(QRectF(QPointF(), m_viewport));
}

QPointF PreviewView::toFrame(const QPointF& pos) const {
  const QRectF r = imageRect();
  if (r.isEmpty()) return {};
  const double x = (pos.x() - r.left()) / r.width() * m_image.width();
  return {m_mirrored ? m_image.width() - x : x, (pos.y() - r.top()) / r.height() * m_image.height()};
}

QPointF PreviewView::toWidget(const QPointF& framePos) const {
  const QRectF r = imageRect();
  if (m_image.isEmpty()) return {};
  const double x = m_mirrored ? m_image.width() - framePos.x() : framePos.x();
  return {r.left() + x * r.width() / m_image.width(), r.top() + framePos.y() * r.height() / m_image.height()};
}

QPoint PreviewView::framePixel(const QPointF& pos) const {
  const QRectF r = imageRect();
  if (r.isEmpty() || !r.contains(pos)) return {-1, -1};
  const QPointF f = toFrame(pos);
  return {std::clamp(static_cast<int>(std::floor(f.x())), 0, m_image.width() - 1),
          std::clamp(static_cast<int>(std::floor(f.y())), 0, m_image.height() - 1)};
}

QRectF PreviewView::pixelRect(const QPoint& pixel) const {
  return QRectF(toWidget(QPointF(pixel)), toWidget(QPointF(pixel) + QPointF(1, 1))).normalized();
}

QLineF PreviewView::divider() const {
  const QRectF r = imageRect();
  if (m_vertical) {
    const double y = r.top() + m_split * r.height();
    return {r.left(), y, r.right(), y};
  }
  const double x = m_mirrored ? r.right() - m_split * r.width() : r.left() + m_split * r.width();
  return {x, r.top(), x, r.bottom()};
}

double PreviewView::splitAt(const QPointF& pos) const {
  const QRectF r = imageRect();
  if (r.isEmpty()) return m_split;
  if (m_vertical) return std::clamp((pos.y() - r.top()) / r.height(), 0.0, 1.0);
  const double t = std::clamp((pos.x() - r.left()) / r.width(), 0.0, 1.0);
  return m_mirrored ? 1.0 - t : t;
}

bool PreviewView::nearDivider(const QPointF& pos, double grab) const {
  const QRectF r = imageRect();
  if (r.isEmpty()) return false;
  if (m_vertical)
    return std::abs(pos.y() - dividerY()) <= grab && pos.x() >= r.left() && pos.x() <= r.right();
  return std::abs(pos.x() - dividerX()) <= grab && pos.y() >= r.top() && pos.y() <= r.bottom();
}

QRectF placePill(const QSizeF& size, const QPointF& anchor, Qt::Alignment align, const QRectF& bounds) {
  QPointF topLeft = anchor;
  if (align & Qt::AlignRight) topLeft.rx() -= size.width();
  if (align & Qt::AlignHCenter) topLeft.rx() -= size.width() / 2;
  if (align & Qt::AlignBottom) topLeft.ry() -= size.height();
  if (align & Qt::AlignVCenter) topLeft.ry() -= size.height() / 2;
  // Inside the bounds; where it is wider, the left edge (where the text starts) stays in view.
  topLeft.rx() = std::max(std::min(topLeft.x(), bounds.right() - size.width()), bounds.left());
  topLeft.ry() = std::max(std::min(topLeft.y(), bounds.bottom() - size.height()), bounds.top());
  return {topLeft, size};
}

}  // namespace convolab::gui
