// SPDX-License-Identifier: MIT
// What a painting back-end of the preview (raster or OpenGL) draws, and how it reports back. The back-end
// draws the frame layer (background, the frame scaled, split halves, the stale dimming); the host paints
// the overlays (pills, divider, inspector) with a QPainter on top, the same code for every back-end.
#pragma once

#include <QColor>
#include <QImage>
#include <QRectF>
#include <QString>

class QPainter;

namespace convolab::gui {

/// The frame layer of one paint.
struct PreviewLayer {
  QColor background;
  /// Null: nothing but the background. Same cacheKey(): the same pixels as last time (no new upload).
  QImage filtered;
  QImage original;            ///< for the Original view and the split view's left half
  bool showOriginal = false;  ///< the Original view: `original` everywhere, no dimming
  /// Split view: frame columns left of split · width (rows above split · height when `splitVertical`)
  /// come from `original`; < 0: no split.
  double split = -1;
  bool splitVertical = false;
  QRectF target;       ///< where the whole frame goes, widget coordinates (may reach far past the widget)
  bool smooth = true;  ///< bilinear filtering when scaled (else nearest)
  /// Over the filtered part (a stale frame); alpha 0: none.
  QColor shade = Qt::transparent;
  /// View ▸ Mirror Preview: drawn flipped left to right about the target's centre.
  bool mirrored = false;
};

/// Time one paint took: `cpuMs` on the GUI thread (upload and draw), `gpuMs` the GPU's share when the
/// back-end can measure it (an OpenGL timer query, read a frame or two later), else < 0.
struct PaintTiming {
  double cpuMs = 0;
  double gpuMs = -1;
};

enum class PreviewRenderer { Raster, OpenGL };

class PreviewCanvasHost {
 public:
  virtual ~PreviewCanvasHost() = default;
  virtual PreviewLayer previewLayer() const = 0;
  /// Everything drawn over the frame layer.
  virtual void paintOverlays(QPainter& painter) = 0;
  /// After each paint.
  virtual void canvasPainted(const PaintTiming& timing) = 0;
  /// The back-end cannot draw (no usable OpenGL after all): the host replaces it. Called from inside a paint
  /// or GL initialisation, so the host must not delete the canvas at once.
  virtual void canvasFailed(const QString& why) = 0;
};

}  // namespace convolab::gui
