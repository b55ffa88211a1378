// SPDX-License-Identifier: MIT
// The preview's painting back-end: an OpenGL or a raster canvas, and the fallback from one to the other.
#include "preview/preview_back_end.hpp"

#include <QWidget>

#include "preview/preview_gl_canvas.hpp"
#include "preview/preview_raster_canvas.hpp"

namespace convolab::gui {

PreviewBackEnd::PreviewBackEnd(QWidget* preview, PreviewCanvasHost* host)
    : QObject(preview), m_preview(preview), m_host(host) {}

void PreviewBackEnd::choose(RendererPreference preference) {
  const RendererChoice choice = chooseRenderer(preference);
  use(choice.renderer, choice.why);
}

void PreviewBackEnd::use(PreviewRenderer renderer, const QString& why) {
  m_why = why;
  if (m_canvas && renderer == m_renderer) return;
  if (m_canvas) {
    m_canvas->hide();
    // A GL canvas may be inside its own initialisation or paint right now.
    m_canvas->deleteLater();
  }
  m_renderer = renderer;
  if (renderer == PreviewRenderer::OpenGL) {
    auto* gl = new PreviewGlCanvas(m_host, m_preview);
    // The description (version, renderer) is known once the canvas has its context.
    connect(gl, &PreviewGlCanvas::initialised, this, &PreviewBackEnd::changed);
    m_canvas = gl;
  } else
    m_canvas = new PreviewRasterCanvas(m_host, m_preview);
  m_canvas->setGeometry(m_preview->rect());
  m_canvas->lower();
  m_canvas->show();
  emit changed();
}

void PreviewBackEnd::fallBack(const QString& why) {
  // Not from inside the canvas's own call: replace it once that returns.
  QMetaObject::invokeMethod(
      this, [this, why] { use(PreviewRenderer::Raster, why); }, Qt::QueuedConnection);
}

QString PreviewBackEnd::description() const {
  if (m_renderer == PreviewRenderer::OpenGL) {
    const QString gl = static_cast<PreviewGlCanvas*>(m_canvas)->description();
    return gl.isEmpty() ? rendererName(m_renderer) : gl;
  }
  return m_why.isEmpty() ? tr("Raster (QPainter)") : tr("Raster — %1").arg(m_why);
}

}  // namespace convolab::gui
