// SPDX-License-Identifier: MIT
#include "preview_raster_canvas.hpp"

#include <QElapsedTimer>
#include <QPainter>

namespace convolab::gui {

PreviewRasterCanvas::PreviewRasterCanvas(PreviewCanvasHost* host, QWidget* parent)
    : QWidget(parent), m_host(host) {
  setObjectName(QStringLiteral("previewRasterCanvas"));
  setAttribute(Qt::WA_OpaquePaintEvent);
  // The preview widget under it handles the mouse.
  setAttribute(Qt::WA_TransparentForMouseEvents);
}

void paintPreviewLayer(QPainter& p, const PreviewLayer& layer, const QRectF& area) {
  p.fillRect(area, layer.background);
  if (layer.filtered.isNull()) return;
  p.setRenderHint(QPainter::SmoothPixmapTransform, layer.smooth);
  const QRectF& target = layer.target;
  if (layer.showOriginal) {
    p.drawImage(target, layer.original);
    return;
  }
  if (layer.split < 0) {
    p.drawImage(target, layer.filtered);
    if (layer.shade.alpha() > 0) p.fillRect(target, layer.shade);
    return;
  }
  const double x = target.left() + layer.split * target.width();
  const double srcX = layer.split * layer.filtered.width();
  // Each half from its own image; the source rectangles meet at the same pixel column.
  p.drawImage(QRectF(target.left(), target.top(), x - target.left(), target.height()), layer.original,
              QRectF(0, 0, srcX, layer.original.height()));
  const QRectF right(x, target.top(), target.right() - x, target.height());
  p.drawImage(right, layer.filtered, QRectF(srcX, 0, layer.filtered.width() - srcX, layer.filtered.height()));
  if (layer.shade.alpha() > 0) p.fillRect(right, layer.shade);
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
