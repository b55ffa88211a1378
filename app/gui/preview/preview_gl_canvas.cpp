// SPDX-License-Identifier: MIT
#include "preview/preview_gl_canvas.hpp"

#include "preview/preview_renderer.hpp"

#include <QElapsedTimer>
#include <QOpenGLContext>
#include <QOpenGLPaintDevice>
#include <QOpenGLShaderProgram>
#include <QOpenGLTimerQuery>
#include <QPainter>
#include <cstring>

#ifndef GL_UNPACK_ROW_LENGTH
#define GL_UNPACK_ROW_LENGTH 0x0CF2
#endif

namespace convolab::gui {

namespace {

// The quad's corners (0..1); the vertex shader places them on the target rectangle.
constexpr GLfloat kCorners[] = {0, 0, 1, 0, 0, 1, 1, 1};

// GLSL that compiles as GLSL ES 1.00 and desktop GLSL 1.10 (Qt defines the precision words there).
constexpr const char* kVertexShader = R"(
attribute highp vec2 corner;
uniform highp vec4 target;  // NDC: left, top, right, bottom
varying highp vec2 uv;
void main() {
  uv = corner;
  gl_Position = vec4(mix(target.xy, target.zw, corner), 0.0, 1.0);
}
)";

// Left of `split` (texture x; y, above it, when `vertical` is 1) the original, right of (below) it the
// filtered frame under the stale shade.
constexpr const char* kFragmentShader = R"(
uniform sampler2D filtered;
uniform sampler2D original;
uniform highp float split;
uniform highp float vertical;
uniform mediump vec4 shade;  // colour, alpha: how much of it
varying highp vec2 uv;
void main() {
  if (mix(uv.x, uv.y, vertical) < split) {
    gl_FragColor = vec4(texture2D(original, uv).rgb, 1.0);
  } else {
    gl_FragColor = vec4(mix(texture2D(filtered, uv).rgb, shade.rgb, shade.a), 1.0);
  }
}
)";

// The row length and alignment that make GL read rows `stride` bytes apart; false: none does.
bool unpackLayout(int width, qsizetype stride, bool rowLengthAvailable, GLint& rowLength, GLint& alignment) {
  for (const GLint a : {1, 2, 4, 8}) {
    const qsizetype packed = (static_cast<qsizetype>(width) * 3 + a - 1) / a * a;
    if (packed == stride) {
      rowLength = 0;
      alignment = a;
      return true;
    }
  }
  if (rowLengthAvailable && stride % 3 == 0) {
    rowLength = static_cast<GLint>(stride / 3);
    alignment = 1;
    return true;
  }
  return false;
}

}  // namespace

PreviewGlCanvas::PreviewGlCanvas(PreviewCanvasHost* host, QWidget* parent)
    : QOpenGLWidget(parent), m_host(host) {
  setObjectName(QStringLiteral("previewGlCanvas"));
  // The preview widget under it handles the mouse.
  setAttribute(Qt::WA_TransparentForMouseEvents);
}

PreviewGlCanvas::~PreviewGlCanvas() {
  if (m_ready && context()) {
    makeCurrent();
    releaseGl();
    doneCurrent();
  }
}

void PreviewGlCanvas::releaseGl() {
  for (Texture* t : {&m_filtered, &m_original})
    if (t->id) glDeleteTextures(1, &t->id), *t = {};
  m_quad.destroy();
  m_pixelBuffer.destroy();
  m_program.reset();
  m_paintDevice.reset();
  for (auto& q : m_queries) q.reset();
}

void PreviewGlCanvas::initializeGL() {
  initializeOpenGLFunctions();
  QOpenGLContext* ctx = context();
  auto fail = [this](const QString& why) {
    m_failed = true;
    m_host->canvasFailed(why);
  };
  if (qEnvironmentVariableIsSet("CONVOLAB_PREVIEW_GL_FAIL"))
    return fail(tr("OpenGL refused for the test (CONVOLAB_PREVIEW_GL_FAIL)"));
  const QSurfaceFormat format = ctx->format();
  const bool es = ctx->isOpenGLES();
  m_rowLength = !es || format.majorVersion() >= 3;
  // Uploads through a pixel buffer where the context maps one, and not on a CPU rasteriser: there it is one
  // more copy of the frame and no DMA (under Xvfb at 1080p, llvmpipe: 5.4–9.2 ms a paint against 3.3–4.2).
  // CONVOLAB_PREVIEW_GL_PBO=1 or 0 decides instead.
  const QString pbo = qEnvironmentVariable("CONVOLAB_PREVIEW_GL_PBO");
  const bool mapsBuffers =
      es ? format.majorVersion() >= 3
         : format.version() >= qMakePair(3, 0) || ctx->hasExtension("GL_ARB_map_buffer_range");
  m_pixelBuffers =
      mapsBuffers &&
      (pbo.isEmpty()
           ? !softwareRenderer(QString::fromLatin1(reinterpret_cast<const char*>(glGetString(GL_RENDERER))))
           : pbo != QLatin1String("0"));
  m_program = std::make_unique<QOpenGLShaderProgram>();
  if (!m_program->addShaderFromSourceCode(QOpenGLShader::Vertex, kVertexShader) ||
      !m_program->addShaderFromSourceCode(QOpenGLShader::Fragment, kFragmentShader) || !m_program->link())
    return fail(tr("the preview's shaders did not build: %1").arg(m_program->log().trimmed()));
  m_program->bind();
  m_program->setUniformValue("filtered", 0);
  m_program->setUniformValue("original", 1);
  m_program->release();
  m_quad.create();
  m_quad.bind();
  m_quad.allocate(kCorners, sizeof(kCorners));
  m_quad.release();
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &m_maxTexture);
  // GPU time where the context can measure it (desktop GL 3.3 or ARB_timer_query), without waiting for it.
  if (!es && (format.version() >= qMakePair(3, 3) || ctx->hasExtension("GL_ARB_timer_query"))) {
    for (auto& q : m_queries) {
      q = std::make_unique<QOpenGLTimerQuery>();
      if (!q->create()) {
        for (auto& r : m_queries) r.reset();
        break;
      }
    }
  }
  m_description = QStringLiteral("OpenGL%1 %2.%3 · %4")
                      .arg(es ? QStringLiteral(" ES") : QString())
                      .arg(format.majorVersion())
                      .arg(format.minorVersion())
                      .arg(QString::fromLatin1(reinterpret_cast<const char*>(glGetString(GL_RENDERER))));
  m_ready = true;
  emit initialised();
}

void PreviewGlCanvas::upload(Texture& texture, const QImage& image) {
  if (texture.id && texture.key == image.cacheKey()) return;
  if (!texture.id) {
    glGenTextures(1, &texture.id);
    glBindTexture(GL_TEXTURE_2D, texture.id);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  } else {
    glBindTexture(GL_TEXTURE_2D, texture.id);
  }
  GLint rowLength = 0, alignment = 1;
  const bool whole = unpackLayout(image.width(), image.bytesPerLine(), m_rowLength, rowLength, alignment);
  glPixelStorei(GL_UNPACK_ALIGNMENT, alignment);
  if (m_rowLength) glPixelStorei(GL_UNPACK_ROW_LENGTH, rowLength);
  if (texture.size != image.size()) {
    // RGB8 where the context has sized formats; GLES 2 takes the unsized GL_RGB.
    const GLint internal =
        context()->isOpenGLES() && context()->format().majorVersion() < 3 ? GL_RGB : 0x8051;
    glTexImage2D(GL_TEXTURE_2D, 0, internal, image.width(), image.height(), 0, GL_RGB, GL_UNSIGNED_BYTE,
                 nullptr);
    texture.size = image.size();
  }
  // The pixels go up from a pixel buffer where the context maps one and is a GPU's (m_pixelBuffers): the
  // driver then uploads by DMA and converts RGB on the GPU, where from the image's memory NVIDIA's converts
  // on the CPU (bench --latency's gl-rgb-pbo-orphan against gl-rgb on an H200, display stage: 1.46 ms
  // against 3.60 at 1080p, 4.8 against 11.2 at 4K; docs/bench/h200-2026-11-26-gl). The buffer is orphaned and
  // mapped with invalidation each time, so the GPU never waits for the previous upload. Else the image's
  // memory.
  const uchar* source = image.constBits();
  const bool viaBuffer = m_pixelBuffers && fillPixelBuffer(image);
  if (viaBuffer) source = nullptr;  // offsets into the bound buffer
  const auto rowAt = [&](int y) {
    const qsizetype offset = static_cast<qsizetype>(y) * image.bytesPerLine();
    return viaBuffer ? reinterpret_cast<const void*>(static_cast<quintptr>(offset))
                     : static_cast<const void*>(image.constScanLine(y));
  };
  if (whole) {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, image.width(), image.height(), GL_RGB, GL_UNSIGNED_BYTE, source);
  } else {
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (int y = 0; y < image.height(); ++y)
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, y, image.width(), 1, GL_RGB, GL_UNSIGNED_BYTE, rowAt(y));
  }
  if (viaBuffer) m_pixelBuffer.release();
  if (m_rowLength) glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  texture.key = image.cacheKey();
}

bool PreviewGlCanvas::fillPixelBuffer(const QImage& image) {
  const qsizetype bytes = image.sizeInBytes();
  if (!m_pixelBuffer.isCreated() && !m_pixelBuffer.create()) return m_pixelBuffers = false;
  m_pixelBuffer.bind();
  m_pixelBuffer.allocate(static_cast<int>(bytes));  // orphans the storage the last upload may still read
  void* p = m_pixelBuffer.mapRange(0, static_cast<int>(bytes),
                                   QOpenGLBuffer::RangeWrite | QOpenGLBuffer::RangeInvalidateBuffer);
  if (!p) {
    m_pixelBuffer.release();
    return m_pixelBuffers = false;  // not again: the image's memory from now on
  }
  std::memcpy(p, image.constBits(), static_cast<std::size_t>(bytes));
  if (!m_pixelBuffer.unmap()) {
    m_pixelBuffer.release();
    return false;
  }
  return true;
}

void PreviewGlCanvas::drawLayer(const PreviewLayer& layer) {
  const qreal dpr = devicePixelRatioF();
  glViewport(0, 0, static_cast<GLsizei>(width() * dpr), static_cast<GLsizei>(height() * dpr));
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_STENCIL_TEST);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glClearColor(layer.background.redF(), layer.background.greenF(), layer.background.blueF(), 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  if (layer.filtered.isNull() || width() <= 0 || height() <= 0) return;
  const QImage& main = layer.showOriginal ? layer.original : layer.filtered;
  if (main.width() > m_maxTexture || main.height() > m_maxTexture) {
    m_failed = true;
    m_host->canvasFailed(tr("the frame (%1×%2) is larger than OpenGL's texture limit (%3)")
                             .arg(main.width())
                             .arg(main.height())
                             .arg(m_maxTexture));
    return;
  }
  const bool split = !layer.showOriginal && layer.split >= 0;
  upload(m_filtered, main);
  if (split) upload(m_original, layer.original);
  const GLint filter = layer.smooth ? GL_LINEAR : GL_NEAREST;
  for (Texture* t : {&m_filtered, &m_original}) {
    if (!t->id || (t == &m_original && !split)) continue;
    glActiveTexture(t == &m_filtered ? GL_TEXTURE0 : GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, t->id);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
  }
  // Without a split, unit 1 repeats the main texture (the shader never picks it).
  if (!split) {
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, m_filtered.id);
  }
  glActiveTexture(GL_TEXTURE0);

  const QRectF& r = layer.target;
  const double w = width(), h = height();
  m_program->bind();
  // Mirrored: the quad's left edge (texture x 0) goes to the right of the target.
  const double left = layer.mirrored ? r.right() : r.left(), right = layer.mirrored ? r.left() : r.right();
  m_program->setUniformValue(
      "target", QVector4D(2 * left / w - 1, 1 - 2 * r.top() / h, 2 * right / w - 1, 1 - 2 * r.bottom() / h));
  m_program->setUniformValue("split", split ? static_cast<GLfloat>(layer.split) : -1.0f);
  m_program->setUniformValue("vertical", layer.splitVertical ? 1.0f : 0.0f);
  const QColor shade = layer.showOriginal ? QColor(Qt::transparent) : layer.shade;
  m_program->setUniformValue("shade", QVector4D(shade.redF(), shade.greenF(), shade.blueF(), shade.alphaF()));
  m_quad.bind();
  const int corner = m_program->attributeLocation("corner");
  m_program->enableAttributeArray(corner);
  m_program->setAttributeBuffer(corner, GL_FLOAT, 0, 2);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  m_program->disableAttributeArray(corner);
  m_quad.release();
  m_program->release();
  glBindTexture(GL_TEXTURE_2D, 0);
}

double PreviewGlCanvas::collectGpuMs() {
  double ms = -1;
  for (std::size_t i = 0; i < m_queries.size(); ++i) {
    if (!m_queries[i] || !m_queryPending[i] || !m_queries[i]->isResultAvailable()) continue;
    ms = m_queries[i]->waitForResult() / 1e6;
    m_queryPending[i] = false;
  }
  return ms;
}

void PreviewGlCanvas::paintGL() {
  if (!m_ready || m_failed) return;
  QElapsedTimer timer;
  timer.start();
  const double gpuMs = collectGpuMs();
  QOpenGLTimerQuery* query = nullptr;
  if (m_queries[m_nextQuery] && !m_queryPending[m_nextQuery]) {
    query = m_queries[m_nextQuery].get();
    query->begin();
  }
  const qreal dpr = devicePixelRatioF();
  if (!m_paintDevice) m_paintDevice = std::make_unique<QOpenGLPaintDevice>();
  m_paintDevice->setSize((QSizeF(size()) * dpr).toSize());
  m_paintDevice->setDevicePixelRatio(dpr);
  QPainter p(m_paintDevice.get());
  p.setFont(font());
  p.beginNativePainting();
  drawLayer(m_host->previewLayer());
  p.endNativePainting();
  if (!m_failed) m_host->paintOverlays(p);
  p.end();
  if (query) {
    query->end();
    m_queryPending[m_nextQuery] = true;
    m_nextQuery = (m_nextQuery + 1) % static_cast<int>(m_queries.size());
  }
  if (!m_failed) m_host->canvasPainted({timer.nsecsElapsed() / 1e6, gpuMs});
}

}  // namespace convolab::gui
