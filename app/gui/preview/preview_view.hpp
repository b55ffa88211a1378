// SPDX-License-Identifier: MIT
// PreviewView: where the frame lies in the preview (fit, or a zoom from 1/16 to 32× moved by a pan; the split
// divider, left/right or top/bottom) and the mapping between widget and frame pixels. Every painting back-end
// (raster, OpenGL), the overlays (pixel grid, inspector) and the mouse read this one transform.
#pragma once

#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QSize>
#include <QSizeF>
#include <QString>
#include <Qt>

namespace convolab::gui {

class PreviewView {
 public:
  /// Space kept free around a fitted frame.
  static constexpr double kFitMargin = 8.0;
  /// The zoom range (widget pixels per frame pixel) and the steps of Zoom In / Out and the wheel.
  static constexpr double kMinZoom = 1.0 / 16;
  static constexpr double kMaxZoom = 32.0;
  /// From this zoom on, thin lines are drawn between frame pixels.
  static constexpr double kGridZoom = 8.0;
  /// A pan never moves the frame further out than this many widget pixels of it stay in view (per axis).
  static constexpr double kKeepVisible = 48.0;

  void setViewportSize(const QSizeF& size);
  QSizeF viewportSize() const { return m_viewport; }
  /// The frame's size in pixels; an empty size: nothing shown.
  void setImageSize(const QSize& size);
  QSize imageSize() const { return m_image; }

  /// Fit: the whole frame, scaled to the viewport. Otherwise zoom(), centred and moved by pan().
  /// setFit(false) is 100 %, centred.
  void setFit(bool fit);
  bool fit() const { return m_fit; }
  /// Sets the zoom (clamped to kMinZoom..kMaxZoom, leaves fit), keeping the frame point under widget
  /// position `anchor` where it is (the cursor for the wheel, the viewport's centre for the keys).
  void zoomAt(double zoom, const QPointF& anchor);
  /// The next step up or down from the current scale (fit's included), anchored at `anchor`.
  void zoomIn(const QPointF& anchor);
  void zoomOut(const QPointF& anchor);
  /// The zoom used when not fitted.
  double zoom() const { return m_zoom; }
  /// Offset from the centred position, in widget pixels (used when not fitted); clamped so that at least
  /// kKeepVisible widget pixels of the frame (or all of it, when smaller) stay in view on each axis.
  void setPan(const QPointF& pan);
  QPointF pan() const { return m_pan; }
  /// Divider of the split view, 0..1 of the frame width (left of it: the original), or of its height
  /// when vertical (above it: the original).
  void setSplit(double split);
  double split() const { return m_split; }
  void setSplitVertical(bool vertical) { m_vertical = vertical; }
  bool splitVertical() const { return m_vertical; }
  /// View ▸ Mirror Preview: the frame is shown flipped left to right. Every mapping below follows it, so
  /// the pixel under the cursor is the frame's true pixel; the frame itself is never flipped.
  void setMirrored(bool mirrored) { m_mirrored = mirrored; }
  bool mirrored() const { return m_mirrored; }

  /// Widget pixels per frame pixel.
  double scale() const;
  /// The scale fit would use.
  double fitScale() const;
  /// Where the whole frame lies in widget coordinates (may reach far past the viewport when zoomed). When
  /// not fitted its corner is on a whole pixel, so at 100 % every frame pixel covers exactly one widget
  /// pixel and at whole zooms every one an n×n block.
  QRectF imageRect() const;
  /// The part of the frame in view (imageRect() ∩ viewport).
  QRectF visibleRect() const;
  /// Filtered (bilinear) when fitted and when zoomed below 100 %; at 100 % and above each frame pixel is
  /// shown as it is (nearest): the values read true and pixels are squares.
  bool smoothSampling() const;
  /// Lines between frame pixels are drawn (zoom ≥ kGridZoom).
  bool gridVisible() const;
  /// "400 %", or "Fit 47 %".
  QString zoomText() const;

  /// Frame coordinates (pixels, fractional) of widget position `pos`.
  QPointF toFrame(const QPointF& pos) const;
  /// Widget position of frame coordinates `framePos`.
  QPointF toWidget(const QPointF& framePos) const;
  /// The frame pixel under widget position `pos`; (-1, -1) outside the frame.
  QPoint framePixel(const QPointF& pos) const;
  /// Where frame pixel `pixel` lies in widget coordinates.
  QRectF pixelRect(const QPoint& pixel) const;

  /// The divider in widget coordinates: a vertical line at dividerX(), or a horizontal one when vertical,
  /// across the frame.
  QLineF divider() const;
  double dividerX() const { return divider().x1(); }
  double dividerY() const { return divider().y1(); }
  /// The split position (0..1) that puts the divider at widget position `pos` (its x, or its y).
  double splitAt(const QPointF& pos) const;
  /// `pos` is within `grab` widget pixels of the divider, beside the frame.
  bool nearDivider(const QPointF& pos, double grab) const;

 private:
  void clampPan();

  QSizeF m_viewport;
  QSize m_image;
  bool m_fit = true;
  double m_zoom = 1.0;
  QPointF m_pan;
  double m_split = 0.5;
  bool m_vertical = false;
  bool m_mirrored = false;
};

/// Where a pill (a rounded label of `size`) goes: at `anchor` per `align` (left/right/h-centre,
/// top/v-centre), then moved inside `bounds` (its left edge wins when it is wider).
QRectF placePill(const QSizeF& size, const QPointF& anchor, Qt::Alignment align, const QRectF& bounds);

}  // namespace convolab::gui
