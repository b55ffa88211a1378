// SPDX-License-Identifier: MIT
// PreviewRasterCanvas: the preview's frame layer drawn with QPainter on the CPU (the fallback where no
// usable OpenGL exists, or when the setting asks for it).
#pragma once

#include <QWidget>

#include "preview/preview_canvas.hpp"

namespace convolab::gui {

class PreviewRasterCanvas : public QWidget {
  Q_OBJECT

 public:
  PreviewRasterCanvas(PreviewCanvasHost* host, QWidget* parent);

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  PreviewCanvasHost* m_host;
};

/// Draws `layer` with `painter` (also used by tests as the reference picture).
void paintPreviewLayer(QPainter& painter, const PreviewLayer& layer, const QRectF& area);

}  // namespace convolab::gui
