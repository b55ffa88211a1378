// SPDX-License-Identifier: MIT
// The preview's mouse and zoom: the divider drag, the pan, the wheel and double-click zoom, the Fit / 100 %
// / Zoom In / Out calls, and the hover the pixel inspector follows.
#include "preview/preview_interaction.hpp"

#include <QCursor>
#include <QGuiApplication>
#include <QMouseEvent>
#include <QWheelEvent>
#include <QWidget>

#include "preview/preview_view.hpp"

namespace convolab::gui {

namespace {

// How far from the split divider (widget pixels) a press grabs it.
constexpr double kDividerGrab = 10.0;

}  // namespace

PreviewInteraction::PreviewInteraction(QWidget* preview, PreviewView& view)
    : QObject(preview), m_preview(preview), m_view(view) {}

void PreviewInteraction::setFit(bool fit) {
  if (fit == m_view.fit() && (fit || m_view.zoom() == 1.0)) return;
  m_view.setFit(fit);
  viewChanged();
}

void PreviewInteraction::setZoom(double zoom) {
  m_view.zoomAt(zoom, QRectF(m_preview->rect()).center());
  viewChanged();
}

void PreviewInteraction::zoomIn() {
  m_view.zoomIn(QRectF(m_preview->rect()).center());
  viewChanged();
}

void PreviewInteraction::zoomOut() {
  m_view.zoomOut(QRectF(m_preview->rect()).center());
  viewChanged();
}

void PreviewInteraction::viewChanged() {
  if (m_view.fit() != m_wasFit) {
    m_wasFit = m_view.fit();
    emit fitToWindowChanged(m_wasFit);
  }
  viewportResized();
  emit moved();
  reportHover();  // the frame moved under a still cursor: the inspector reads the pixel now under it
}

void PreviewInteraction::viewportResized() {
  if (m_view.scale() == m_lastScale) return;
  m_lastScale = m_view.scale();
  emit zoomChanged();
}

void PreviewInteraction::emitHover(const QPointF& pos, Qt::KeyboardModifiers modifiers) {
  const QPoint framePos = m_view.framePixel(pos);
  if (framePos.x() >= 0)
    emit hovered(framePos, modifiers);
  else
    emit hoverLeft();
}

void PreviewInteraction::reportHover() {
  // The position the last move event gave, not QCursor::pos(): that needs the window system's pointer (none
  // offscreen) and underMouse() an Enter event the canvas child can take.
  if (!m_hoverPos || m_drag != Drag::None) return;
  emitHover(*m_hoverPos, QGuiApplication::queryKeyboardModifiers());
}

bool PreviewInteraction::nearDivider(const QPointF& pos, const Scene& scene) const {
  if (!scene.split || !scene.picture) return false;
  return m_view.nearDivider(pos, kDividerGrab);
}

bool PreviewInteraction::press(QMouseEvent* event, const Scene& scene) {
  const bool middle = event->button() == Qt::MiddleButton;
  if (event->button() != Qt::LeftButton && !middle) return false;
  if (!middle && nearDivider(event->position(), scene)) {
    m_drag = Drag::Divider;
  } else if (!middle && scene.split && m_view.fit() && m_view.imageRect().contains(event->position())) {
    // Fitted, a click anywhere in split view moves the divider there (zoomed, a drag pans).
    m_drag = Drag::Divider;
    move(event, scene);
  } else if (!m_view.fit()) {
    m_drag = Drag::Pan;
    m_dragStart = event->position();
    m_panStart = m_view.pan();
    m_preview->setCursor(Qt::ClosedHandCursor);
  }
  return true;
}

void PreviewInteraction::move(QMouseEvent* event, const Scene& scene) {
  if (m_drag == Drag::Divider) {
    if (m_view.imageRect().width() > 0) {
      m_view.setSplit(m_view.splitAt(event->position()));
      emit splitMoved();
    }
  } else if (m_drag == Drag::Pan) {
    m_view.setPan(m_panStart + (event->position() - m_dragStart));
    emit moved();
  } else {
    m_preview->setCursor(nearDivider(event->position(), scene)
                             ? (m_view.splitVertical() ? Qt::SplitVCursor : Qt::SplitHCursor)
                             : (!m_view.fit() ? Qt::OpenHandCursor : Qt::ArrowCursor));
  }
  m_hoverPos = event->position();
  emitHover(event->position(), event->modifiers());
}

void PreviewInteraction::leave() {
  m_hoverPos.reset();
  emit hoverLeft();
}

void PreviewInteraction::release() {
  m_drag = Drag::None;
  m_preview->setCursor(Qt::ArrowCursor);
}

void PreviewInteraction::doubleClick(QMouseEvent* event) {
  // Fitted: 100 % around the pixel clicked; zoomed: fit.
  if (m_view.fit())
    m_view.zoomAt(1.0, event->position());
  else
    m_view.setFit(true);
  viewChanged();
}

bool PreviewInteraction::wheel(QWheelEvent* event, const Scene& scene) {
  if (!scene.picture || scene.placeholder) return false;
  // One zoom step per notch (120), around the cursor: the frame point under it stays under it.
  m_wheel += event->angleDelta().y();
  const QPointF at = event->position();
  bool changed = false;
  for (; m_wheel >= 120; m_wheel -= 120) m_view.zoomIn(at), changed = true;
  for (; m_wheel <= -120; m_wheel += 120) m_view.zoomOut(at), changed = true;
  if (changed) viewChanged();
  event->accept();
  return true;
}

}  // namespace convolab::gui
