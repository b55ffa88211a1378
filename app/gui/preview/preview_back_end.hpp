// SPDX-License-Identifier: MIT
// PreviewBackEnd: the canvas that draws the preview's frame layer (OpenGL, or the raster fallback), laid over
// the preview under its overlays, and its replacement when the preference changes or OpenGL turns out
// unusable once its canvas first initialises.
#pragma once

#include <QObject>
#include <QString>

#include "preview/preview_canvas.hpp"
#include "preview/preview_renderer.hpp"

class QWidget;

namespace convolab::gui {

/// On the GUI thread, a child of the preview.
class PreviewBackEnd : public QObject {
  Q_OBJECT

 public:
  /// `preview`: the widget the canvas covers (its parent); `host`: what the canvas draws and reports to.
  PreviewBackEnd(QWidget* preview, PreviewCanvasHost* host);

  /// Picks the back-end for `preference` (OpenGL when usable unless it says raster).
  void choose(RendererPreference preference);
  /// Draws with `renderer` from now on (`why`: why raster, when OpenGL was wanted); a new canvas only when
  /// the renderer changes.
  void use(PreviewRenderer renderer, const QString& why);
  /// The canvas cannot draw: raster replaces it once the canvas's own call (a paint, its GL initialisation)
  /// has returned.
  void fallBack(const QString& why);

  PreviewRenderer renderer() const { return m_renderer; }
  QWidget* canvas() const { return m_canvas; }
  /// For people: "OpenGL 4.5 · llvmpipe (…)" or "Raster — no OpenGL context on this display".
  QString description() const;

 signals:
  /// The back-end changed, or the OpenGL canvas got its context (and so its description).
  void changed();

 private:
  QWidget* m_preview;
  PreviewCanvasHost* m_host;
  QWidget* m_canvas = nullptr;
  PreviewRenderer m_renderer = PreviewRenderer::Raster;
  QString m_why;  // why raster, when OpenGL was wanted
};

}  // namespace convolab::gui
