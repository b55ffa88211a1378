// SPDX-License-Identifier: MIT
#include "preview_renderer.hpp"

#include <QCoreApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>

namespace convolab::gui {

namespace {

QString tr(const char* text) {
  return QCoreApplication::translate("PreviewRenderer", text);
}

// Empty when a context that can run the preview's shaders comes up; else why not.
QString probeOpenGL() {
  QOpenGLContext context;
  if (!context.create()) return tr("no OpenGL context on this display");
  QOffscreenSurface surface;
  surface.setFormat(context.format());
  surface.create();
  if (!surface.isValid() || !context.makeCurrent(&surface))
    return tr("the OpenGL context cannot be made current");
  const QSurfaceFormat format = context.format();
  const bool usable = context.isOpenGLES() ? format.majorVersion() >= 3 : format.majorVersion() >= 2;
  context.doneCurrent();
  if (!usable)
    return tr("OpenGL %1.%2 is too old (the preview needs 2.0, or ES 3.0)")
        .arg(format.majorVersion())
        .arg(format.minorVersion());
  return {};
}

}  // namespace

RendererPreference parseRendererPreference(const QString& text) {
  const QString t = text.trimmed().toLower();
  if (t == QLatin1String("opengl") || t == QLatin1String("gl")) return RendererPreference::OpenGL;
  if (t == QLatin1String("raster")) return RendererPreference::Raster;
  return RendererPreference::Auto;
}

RendererPreference rendererPreference(const QString& setting) {
  const QString env = qEnvironmentVariable("CONVOLAB_PREVIEW");
  return parseRendererPreference(env.isEmpty() ? setting : env);
}

RendererChoice chooseRenderer(RendererPreference preference) {
  if (preference == RendererPreference::Raster) return {PreviewRenderer::Raster, {}};
  const QString why = probeOpenGL();
  if (why.isEmpty()) return {PreviewRenderer::OpenGL, {}};
  return {PreviewRenderer::Raster, why};
}

QString rendererName(PreviewRenderer renderer) {
  return renderer == PreviewRenderer::OpenGL ? QStringLiteral("OpenGL") : QStringLiteral("Raster");
}

}  // namespace convolab::gui
