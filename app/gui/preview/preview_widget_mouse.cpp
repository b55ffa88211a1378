// SPDX-License-Identifier: MIT
// PreviewWidget's mouse and zoom: the divider drag, the pan, the wheel and double-click zoom, the Fit / 100 %
// / Zoom In / Out calls, and the hover the pixel inspector follows. Apart from preview_widget.cpp, which
// keeps the frame, the back-end canvas, the source-state panels and the overlays, so each file holds one
// concern.
#include <QCursor>
#include <QGuiApplication>
#include <QMouseEvent>
#include <QWheelEvent>

#include "preview/preview_widget.hpp"

namespace convolab::gui {

namespace {

// How far from the split divider (widget pixels) a press grabs it.
constexpr double kDividerGrab = 10.0;

}  // namespace

void PreviewWidget::setFitToWindow(bool fit) {
  if (fit == m_view.fit() && (fit || m_view.zoom() == 1.0)) return;
  m_view.setFit(fit);
  viewChanged();
}

void PreviewWidget::setZoom(double zoom) {
  m_view.zoomAt(zoom, QRectF(rect()).center());
  viewChanged();
}

void PreviewWidget::zoomIn() {
  m_view.zoomIn(QRectF(rect()).center());
  viewChanged();
}

void PreviewWidget::zoomOut() {
  m_view.zoomOut(QRectF(rect()).center());
  viewChanged();
}

void PreviewWidget::viewChanged() {
  if (m_view.fit() != m_wasFit) {
    m_wasFit = m_view.fit();
    emit fitToWindowChanged(m_wasFit);
  }
  if (m_view.scale() != m_lastScale) {
    m_lastScale = m_view.scale();
    emit zoomChanged();
  }
  refresh();
  reportHover();  // the frame moved under a still cursor: the inspector reads the pixel now under it
}

void PreviewWidget::reportHover() {
  // The position the last move event gave, not QCursor::pos(): that needs the window system's pointer (none
  // offscreen) and underMouse() an Enter event the canvas child can take.
  if (!m_hoverPos || m_drag != Drag::None) return;
  const QPoint framePos = framePosition(*m_hoverPos);
  if (framePos.x() >= 0)
    emit hovered(framePos, QGuiApplication::queryKeyboardModifiers());
  else
    emit hoverLeft();
}

bool PreviewWidget::nearDivider(const QPointF& pos) const {
  if (m_mode != ViewMode::Split || m_filteredImage.isNull()) return false;
  return m_view.nearDivider(pos, kDividerGrab);
}

void PreviewWidget::mousePressEvent(QMouseEvent* event) {
  const bool middle = event->button() == Qt::MiddleButton;
  if (event->button() != Qt::LeftButton && !middle) return QWidget::mousePressEvent(event);
  if (!middle && nearDivider(event->position())) {
    m_drag = Drag::Divider;
  } else if (!middle && m_mode == ViewMode::Split && m_view.fit() &&
             imageRect().contains(event->position())) {
    // Fitted, a click anywhere in split view moves the divider there (zoomed, a drag pans).
    m_drag = Drag::Divider;
    mouseMoveEvent(event);
  } else if (!m_view.fit()) {
    m_drag = Drag::Pan;
    m_dragStart = event->position();
    m_panStart = m_view.pan();
    setCursor(Qt::ClosedHandCursor);
  }
}

void PreviewWidget::mouseMoveEvent(QMouseEvent* event) {
  if (m_drag == Drag::Divider) {
    if (imageRect().width() > 0) {
      setSplitPosition(m_view.splitAt(event->position()));
      emit splitPositionChanged(m_view.split());
    }
  } else if (m_drag == Drag::Pan) {
    m_view.setPan(m_panStart + (event->position() - m_dragStart));
    refresh();
  } else {
    setCursor(nearDivider(event->position()) ? (m_view.splitVertical() ? Qt::SplitVCursor : Qt::SplitHCursor)
                                             : (!m_view.fit() ? Qt::OpenHandCursor : Qt::ArrowCursor));
  }
  m_hoverPos = event->position();
  const QPoint framePos = framePosition(event->position());
  if (framePos.x() >= 0)
    emit hovered(framePos, event->modifiers());
  else
    emit hoverLeft();
}

void PreviewWidget::leaveEvent(QEvent* event) {
  m_hoverPos.reset();
  emit hoverLeft();
  QWidget::leaveEvent(event);
}

void PreviewWidget::mouseReleaseEvent(QMouseEvent*) {
  m_drag = Drag::None;
  setCursor(Qt::ArrowCursor);
}

void PreviewWidget::mouseDoubleClickEvent(QMouseEvent* event) {
  // Fitted: 100 % around the pixel clicked; zoomed: fit.
  if (m_view.fit())
    m_view.zoomAt(1.0, event->position());
  else
    m_view.setFit(true);
  viewChanged();
}

void PreviewWidget::wheelEvent(QWheelEvent* event) {
  if (m_filteredImage.isNull() || placeholderVisible()) return QWidget::wheelEvent(event);
  // One zoom step per notch (120), around the cursor: the frame point under it stays under it.
  m_wheel += event->angleDelta().y();
  const QPointF at = event->position();
  bool changed = false;
  for (; m_wheel >= 120; m_wheel -= 120) m_view.zoomIn(at), changed = true;
  for (; m_wheel <= -120; m_wheel += 120) m_view.zoomOut(at), changed = true;
  if (changed) viewChanged();
  event->accept();
}

}  // namespace convolab::gui
