// SPDX-License-Identifier: MIT
// PreviewInteraction: how the preview's view is moved and read by hand: the divider drag, the pan, the wheel
// and double-click zoom, the Fit / 100 % / Zoom In / Out calls, and the hover the pixel inspector follows.
// It moves the preview's PreviewView and says what changed; PreviewWidget repaints and passes it on.
#pragma once

#include <QObject>
#include <QPoint>
#include <QPointF>
#include <optional>

class QMouseEvent;
class QWheelEvent;
class QWidget;

namespace convolab::gui {

class PreviewView;

/// On the GUI thread, a child of the preview it handles the mouse of.
class PreviewInteraction : public QObject {
  Q_OBJECT

 public:
  /// What the preview shows, as far as the mouse cares.
  struct Scene {
    bool split = false;        ///< the split view
    bool picture = false;      ///< a frame is shown
    bool placeholder = false;  ///< the "no source" panel covers it
  };

  /// `preview`: the widget (its cursor, its centre; this object's parent); `view`: its geometry (outlives
  /// this).
  PreviewInteraction(QWidget* preview, PreviewView& view);

  /// Fit, or (false) 100 % centred.
  void setFit(bool fit);
  /// Zooms to `zoom` around the preview's centre; zoomIn / zoomOut: one step (PreviewView's steps).
  void setZoom(double zoom);
  void zoomIn();
  void zoomOut();
  /// After a zoom, fit or frame size change: signals, repaint, and the hover (the pixel under the cursor
  /// moved).
  void viewChanged();
  /// The viewport took its new size: zoomChanged() when the fitted scale moved with it.
  void viewportResized();
  /// Emits hovered (or hoverLeft) for the frame pixel now under the last hover position: a new frame or a
  /// zoom under a still pointer refreshes the inspector's line (issue 33.4). Nothing while not hovered.
  void reportHover();

  /// The preview's mouse events. press() and wheel() return false for an event they leave (to the parent).
  bool press(QMouseEvent* event, const Scene& scene);
  void move(QMouseEvent* event, const Scene& scene);
  void release();
  void doubleClick(QMouseEvent* event);
  bool wheel(QWheelEvent* event, const Scene& scene);
  void leave();

 signals:
  void hovered(const QPoint& framePos, Qt::KeyboardModifiers modifiers);
  void hoverLeft();
  /// The divider was dragged to PreviewView::split().
  void splitMoved();
  void fitToWindowChanged(bool fit);
  void zoomChanged();
  /// The view moved (a pan, a zoom): the preview repaints.
  void moved();

 private:
  bool nearDivider(const QPointF& pos, const Scene& scene) const;
  void emitHover(const QPointF& pos, Qt::KeyboardModifiers modifiers);

  QWidget* m_preview;
  PreviewView& m_view;
  enum class Drag { None, Divider, Pan } m_drag = Drag::None;
  QPointF m_dragStart;
  QPointF m_panStart;
  int m_wheel = 0;  // wheel angle not yet turned into a zoom step (touchpads send small deltas)
  bool m_wasFit = true;
  double m_lastScale = 0;
  std::optional<QPointF> m_hoverPos;  ///< where the pointer last moved over the preview; none once it left
};

}  // namespace convolab::gui
