// SPDX-License-Identifier: MIT
// PreviewView: where the frame lies in the preview (fit or 100 %, pan, split divider) and the mapping between
// widget and frame pixels. Every painting back-end (raster, OpenGL) and the mouse handling read this one
// transform, so a zoom added here reaches all of them at once.
#pragma once

#include <QPointF>
#include <QRectF>
#include <QSize>
#include <QSizeF>

namespace convolab::gui {

class PreviewView {
 public:
  /// Space kept free around a fitted frame.
  static constexpr double kFitMargin = 8.0;

  void setViewportSize(const QSizeF& size) { m_viewport = size; }
  QSizeF viewportSize() const { return m_viewport; }
  /// The frame's size in pixels; an empty size: nothing shown.
  void setImageSize(const QSize& size) { m_image = size; }
  QSize imageSize() const { return m_image; }

  /// Fit: the whole frame, scaled to the viewport. Otherwise 1:1, centred and moved by pan().
  void setFit(bool fit);
  bool fit() const { return m_fit; }
  /// Offset from the centred position, in widget pixels (used when not fitted).
  void setPan(const QPointF& pan) { m_pan = pan; }
  QPointF pan() const { return m_pan; }
  /// Divider of the split view, 0..1 of the frame width (left of it: the original).
  void setSplit(double split);
  double split() const { return m_split; }

  /// Widget pixels per frame pixel.
  double scale() const;
  /// Where the whole frame lies in widget coordinates (may reach past the viewport when not fitted). At
  /// 1:1 its corner is on a whole pixel, so every frame pixel covers exactly one widget pixel.
  QRectF imageRect() const;
  /// Scaled, the frame is filtered (bilinear); at 1:1 each frame pixel is shown as it is (nearest), so the
  /// values read true. (A zoom above 100 % may want nearest too, for square pixels and a pixel grid.)
  bool smoothSampling() const;

  /// Frame coordinates (pixels, fractional) of widget position `pos`.
  QPointF toFrame(const QPointF& pos) const;
  /// Widget position of frame coordinates `framePos`.
  QPointF toWidget(const QPointF& framePos) const;
  /// The frame pixel under widget position `pos`; (-1, -1) outside the frame.
  QPoint framePixel(const QPointF& pos) const;

  /// The divider's x in widget coordinates.
  double dividerX() const;
  /// The split position (0..1) that puts the divider at widget x `x`.
  double splitAt(double x) const;
  /// `pos` is within `grab` widget pixels of the divider, beside the frame's height.
  bool nearDivider(const QPointF& pos, double grab) const;

 private:
  QSizeF m_viewport;
  QSize m_image;
  bool m_fit = true;
  QPointF m_pan;
  double m_split = 0.5;
};

}  // namespace convolab::gui
