// SPDX-License-Identifier: MIT
// The heat map of a large kernel: painting, zoom and the cell under the pointer.
#include "editor/kernel_heat_map.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "window/theme.hpp"

namespace convolab::gui {

KernelHeatMap::KernelHeatMap(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("kernelHeatMap"));
  setMouseTracking(true);
  setCursor(Qt::CrossCursor);
  setFocusPolicy(Qt::StrongFocus);
  setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
  setChannel(ChannelFilter::identity(1));
}

void KernelHeatMap::setChannel(const ChannelFilter& channel) {
  const bool resized = channel.size != m_channel.size;
  m_channel = channel;
  m_scaleMax = 0;
  for (double v : m_channel.matrix) m_scaleMax = std::max(m_scaleMax, std::abs(v));
  rebuildImage();
  if (resized) {
    setHover({-1, -1});
    applyCellSize(m_fit ? 0 : m_cell, {});
  }
  update();
}

void KernelHeatMap::rebuildImage() {
  const int k = m_channel.size;
  m_image = QImage(k, k, QImage::Format_RGB32);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      const double v = m_channel.at(j, i);
      m_image.setPixelColor(i, j, theme::heatColor(m_scaleMax > 0 ? v / m_scaleMax : 0.0));
    }
}

void KernelHeatMap::setCellSize(int px) {
  m_fit = false;
  applyCellSize(px, {});
}

void KernelHeatMap::zoomBy(int steps, QPoint anchor) {
  int px = m_cell;
  for (int s = 0; s < std::abs(steps); ++s)  // ×1.25 a notch, at least one pixel
    px = steps > 0 ? std::max(px + 1, static_cast<int>(std::lround(px * 1.25)))
                   : std::min(px - 1, static_cast<int>(std::lround(px / 1.25)));
  m_fit = false;
  applyCellSize(px, anchor);
}

void KernelHeatMap::setFitMode(bool fit) {
  m_fit = fit;
  applyCellSize(fit ? 0 : m_cell, {});
}

void KernelHeatMap::setFitArea(QSize area) {
  m_fitArea = area;
  if (m_fit) applyCellSize(0, {});
}

void KernelHeatMap::applyCellSize(int px, QPoint anchor) {
  const int k = std::max(1, m_channel.size);
  if (m_fit) px = std::min(m_fitArea.width(), m_fitArea.height()) / k;
  px = std::clamp(px, kMinCell, kMaxCell);
  const int before = m_cell;
  m_cell = px;
  setFixedSize(k * px + 1, k * px + 1);  // + 1: the last cell line
  update();
  if (before != px) emit zoomed(before, anchor);
}

QPoint KernelHeatMap::cellAt(QPoint pos) const {
  const int k = m_channel.size;
  if (pos.x() < 0 || pos.y() < 0) return {-1, -1};
  const int col = pos.x() / m_cell, row = pos.y() / m_cell;
  if (col >= k || row >= k) return {-1, -1};
  return {col, row};
}

QRect KernelHeatMap::cellRect(int row, int col) const {
  return {col * m_cell, row * m_cell, m_cell, m_cell};
}

void KernelHeatMap::setHover(QPoint cell) {
  if (cell == m_hover) return;
  const QPoint before = m_hover;
  m_hover = cell;
  if (before.x() >= 0) update(cellRect(before.y(), before.x()).adjusted(-2, -2, 2, 2));
  if (cell.x() >= 0) update(cellRect(cell.y(), cell.x()).adjusted(-2, -2, 2, 2));
  emit hovered(cell.y(), cell.x());
}

void KernelHeatMap::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const int k = m_channel.size;
  const QRect whole(0, 0, k * m_cell, k * m_cell);
  p.setRenderHint(QPainter::SmoothPixmapTransform, false);
  p.drawImage(whole, m_image);
  if (m_cell >= 8) {  // lines between cells once a cell has room for them
    p.setPen(theme::heatCellLine());
    for (int i = 0; i <= k; ++i) {
      p.drawLine(i * m_cell, 0, i * m_cell, whole.height());
      p.drawLine(0, i * m_cell, whole.width(), i * m_cell);
    }
  }
  // The centre tap, then the cell under the pointer.
  const int c = k / 2;
  p.setBrush(Qt::NoBrush);
  p.setPen(QPen(theme::accent(), m_cell >= 6 ? 2 : 1));
  p.drawRect(cellRect(c, c).adjusted(0, 0, -1, -1));
  if (m_hover.x() >= 0) {
    p.setPen(QPen(theme::heatHover(), 2));
    p.drawRect(cellRect(m_hover.y(), m_hover.x()).adjusted(0, 0, -1, -1));
  }
}

void KernelHeatMap::mouseMoveEvent(QMouseEvent* event) {
  setHover(cellAt(event->position().toPoint()));
}

void KernelHeatMap::mousePressEvent(QMouseEvent* event) {
  m_pressed = event->button() == Qt::LeftButton ? cellAt(event->position().toPoint()) : QPoint(-1, -1);
}

void KernelHeatMap::mouseReleaseEvent(QMouseEvent* event) {
  const QPoint cell = cellAt(event->position().toPoint());
  if (event->button() == Qt::LeftButton && cell.x() >= 0 && cell == m_pressed)
    emit cellClicked(cell.y(), cell.x());
  m_pressed = {-1, -1};
}

void KernelHeatMap::leaveEvent(QEvent*) {
  if (!hasFocus()) setHover({-1, -1});  // the keyboard's current cell stays while the map has the focus
}

void KernelHeatMap::keyPressEvent(QKeyEvent* event) {
  const int k = m_channel.size;
  QPoint cell = m_hover.x() >= 0 ? m_hover : QPoint(k / 2, k / 2);  // from the centre at first
  switch (event->key()) {
    case Qt::Key_Left:
      cell.rx() -= 1;
      break;
    case Qt::Key_Right:
      cell.rx() += 1;
      break;
    case Qt::Key_Up:
      cell.ry() -= 1;
      break;
    case Qt::Key_Down:
      cell.ry() += 1;
      break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_F2:
      setHover(cell);
      emit cellClicked(cell.y(), cell.x());
      return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
    case Qt::Key_Minus:
      zoomBy(event->key() == Qt::Key_Minus ? -1 : 1, cellRect(cell.y(), cell.x()).center());
      return;
    default:
      QWidget::keyPressEvent(event);
      return;
  }
  setHover({std::clamp(cell.x(), 0, k - 1), std::clamp(cell.y(), 0, k - 1)});
}

void KernelHeatMap::wheelEvent(QWheelEvent* event) {
  // Touchpads send fractions of a notch: they add up to one.
  m_wheel += event->angleDelta().y();
  const int notches = m_wheel / 120;
  m_wheel -= notches * 120;
  if (notches != 0) zoomBy(notches, event->position().toPoint());
  event->accept();
}

}  // namespace convolab::gui
