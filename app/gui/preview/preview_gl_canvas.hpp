// SPDX-License-Identifier: MIT
// PreviewGlCanvas: the preview's frame layer drawn with OpenGL. The frame (and the original, for the split
// view) goes up as RGB8 textures, only when it changed; scaling, the split and the stale dimming happen in
// one fragment shader. The overlays are painted by the host with a QPainter on top (Qt's GL paint engine).
#pragma once

#include <QOpenGLBuffer>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <array>
#include <memory>

#include "preview/preview_canvas.hpp"

class QOpenGLPaintDevice;
class QOpenGLShaderProgram;
class QOpenGLTimerQuery;

namespace convolab::gui {

class PreviewGlCanvas : public QOpenGLWidget, protected QOpenGLFunctions {
  Q_OBJECT

 public:
  PreviewGlCanvas(PreviewCanvasHost* host, QWidget* parent);
  ~PreviewGlCanvas() override;

  /// "OpenGL 4.5 · llvmpipe (LLVM 15.0.6, 256 bits)" once initialised; empty before.
  QString description() const { return m_description; }
  /// Frames go up through a pixel buffer (desktop GL 3 or GLES 3, a GPU's GL or CONVOLAB_PREVIEW_GL_PBO=1),
  /// not from client memory.
  bool uploadsThroughPixelBuffer() const { return m_pixelBuffers; }

 signals:
  /// OpenGL came up and description() is known.
  void initialised();

 protected:
  void initializeGL() override;
  void paintGL() override;

 private:
  struct Texture {
    GLuint id = 0;
    QSize size;
    qint64 key = 0;  // QImage::cacheKey() of the pixels it holds
  };
  /// Makes `texture` hold `image` (uploads only when the pixels changed).
  void upload(Texture& texture, const QImage& image);
  /// Copies `image` (all its rows, padding too) into m_pixelBuffer and leaves it bound; false where that
  /// fails (then m_pixelBuffers is off for good, or for this image).
  bool fillPixelBuffer(const QImage& image);
  void drawLayer(const PreviewLayer& layer);
  void releaseGl();
  /// The GPU time of an earlier paint, when its query has finished (< 0: none yet).
  double collectGpuMs();

  PreviewCanvasHost* m_host;
  bool m_ready = false;
  bool m_failed = false;
  GLint m_maxTexture = 0;
  bool m_rowLength = false;  // GL_UNPACK_ROW_LENGTH exists (desktop GL, GLES 3)
  QString m_description;
  std::unique_ptr<QOpenGLShaderProgram> m_program;
  // The overlays' QPainter paints through this into the widget's framebuffer: a QPainter on the widget itself
  // is redirected while QWidget::grab() renders, and its overlays would end up under the frame.
  std::unique_ptr<QOpenGLPaintDevice> m_paintDevice;
  QOpenGLBuffer m_quad{QOpenGLBuffer::VertexBuffer};
  // Uploads go through this where the context maps buffers, on a GPU (CONVOLAB_PREVIEW_GL_PBO=0/1 decides).
  QOpenGLBuffer m_pixelBuffer{QOpenGLBuffer::PixelUnpackBuffer};
  bool m_pixelBuffers = false;
  Texture m_filtered;
  Texture m_original;
  // Two timer queries in turn: one is read while the other measures (no stall waiting for the GPU).
  std::array<std::unique_ptr<QOpenGLTimerQuery>, 2> m_queries;
  std::array<bool, 2> m_queryPending{};
  int m_nextQuery = 0;
};

}  // namespace convolab::gui
