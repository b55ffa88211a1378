// SPDX-License-Identifier: MIT
#include "preview/preview_raster_canvas.hpp"

#include <QElapsedTimer>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace convolab::gui {

PreviewRasterCanvas::PreviewRasterCanvas(PreviewCanvasHost* host, QWidget* parent)
    : QWidget(parent), m_host(host) {
  setObjectName(QStringLiteral("previewRasterCanvas"));
  setAttribute(Qt::WA_OpaquePaintEvent);
  // The preview widget under it handles the mouse.
  setAttribute(Qt::WA_TransparentForMouseEvents);
}

namespace {

// Draws the part `source` (frame coordinates) of `image`, placed as the whole frame goes to `frame`, where it
// meets `clip`: only the frame pixels in view, widened to whole pixels. A zoomed frame reaches far past the
// widget (32 × 1920 = 61440 pixels), which QPainter would otherwise scale in full.
void drawPart(QPainter& p, const QImage& image, const QRectF& frame, const QRectF& source,
              const QRectF& clip) {
  const double sx = frame.width() / image.width(), sy = frame.height() / image.height();
  const auto toWidget = [&](const QPointF& f) {
    return QPointF(frame.left() + f.x() * sx, frame.top() + f.y() * sy);
  };
  const QRectF shown = QRectF(toWidget(source.topLeft()), toWidget(source.bottomRight())).intersected(clip);
  if (shown.isEmpty()) return;
  const QRectF part(QPointF(std::max(source.left(), std::floor((shown.left() - frame.left()) / sx)),
                            std::max(source.top(), std::floor((shown.top() - frame.top()) / sy))),
                    QPointF(std::min(source.right(), std::ceil((shown.right() - frame.left()) / sx)),
                            std::min(source.bottom(), std::ceil((shown.bottom() - frame.top()) / sy))));
  p.drawImage(QRectF(toWidget(part.topLeft()), toWidget(part.bottomRight())), image, part);
}

}  // namespace

void paintPreviewLayer(QPainter& p, const PreviewLayer& layer, const QRectF& area) {
  if (layer.mirrored) {  // the same drawing, reflected about the target's centre (x → 2·cx − x)
    const double cx = layer.target.center().x();
    PreviewLayer plain = layer;
    plain.mirrored = false;
    p.save();
    p.translate(2 * cx, 0);
    p.scale(-1, 1);
    paintPreviewLayer(p, plain, QRectF(2 * cx - area.right(), area.top(), area.width(), area.height()));
    p.restore();
    return;
  }
  p.fillRect(area, layer.background);
  if (layer.filtered.isNull()) return;
  p.setRenderHint(QPainter::SmoothPixmapTransform, layer.smooth);
  const QRectF& target = layer.target;
  const QRectF whole(QPointF(0, 0), QSizeF(layer.filtered.size()));
  if (layer.showOriginal) {
    drawPart(p, layer.original, target, whole, area);
    return;
  }
  if (layer.split < 0) {
    drawPart(p, layer.filtered, target, whole, area);
    if (layer.shade.alpha() > 0) p.fillRect(target.intersected(area), layer.shade);
    return;
  }
  // Each part from its own image; the source rectangles meet at the same pixel column (or row).
  QRectF before = whole, after = whole;
  QRectF afterTarget = target;
  if (layer.splitVertical) {
    const double srcY = layer.split * whole.height();
    before.setBottom(srcY);
    after.setTop(srcY);
    afterTarget.setTop(target.top() + layer.split * target.height());
  } else {
    const double srcX = layer.split * whole.width();
    before.setRight(srcX);
    after.setLeft(srcX);
    afterTarget.setLeft(target.left() + layer.split * target.width());
  }
  drawPart(p, layer.original, target, before, area);
  drawPart(p, layer.filtered, target, after, area);
  if (layer.shade.alpha() > 0) p.fillRect(afterTarget.intersected(area), layer.shade);
}

void PreviewRasterCanvas::paintEvent(QPaintEvent*) {
  QElapsedTimer timer;
  timer.start();
  QPainter p(this);
  paintPreviewLayer(p, m_host->previewLayer(), QRectF(rect()));
  m_host->paintOverlays(p);
  p.end();
  m_host->canvasPainted({timer.nsecsElapsed() / 1e6, -1});
}

}  // namespace convolab::gui
