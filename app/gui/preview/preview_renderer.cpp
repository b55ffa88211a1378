// SPDX-License-Identifier: MIT
#include "preview/preview_renderer.hpp"

#include <QCoreApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>

namespace convolab::gui {

namespace {

QString tr(const char* text) {
  return QCoreApplication::translate("PreviewRenderer", text);
}

struct Probe {
  QString why;       // empty: usable
  QString renderer;  // GL_RENDERER
};

// A context that can run the preview's shaders, or why not.
Probe probeOpenGL() {
  QOpenGLContext context;
  if (!context.create()) return {tr("no OpenGL context on this display"), {}};
  QOffscreenSurface surface;
  surface.setFormat(context.format());
  surface.create();
  if (!surface.isValid() || !context.makeCurrent(&surface))
    return {tr("the OpenGL context cannot be made current"), {}};
  const QSurfaceFormat format = context.format();
  const bool usable = context.isOpenGLES() ? format.majorVersion() >= 3 : format.majorVersion() >= 2;
  const QString renderer =
      QString::fromLatin1(reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER)));
  context.doneCurrent();
  if (!usable)
    return {tr("OpenGL %1.%2 is too old (the preview needs 2.0, or ES 3.0)")
                .arg(format.majorVersion())
                .arg(format.minorVersion()),
            renderer};
  return {{}, renderer};
}

}  // namespace

// Mesa's and Google's CPU rasterisers: OpenGL there is the CPU again, plus composing the whole window through
// GL every frame (measured under Xvfb at 1080p: slower than the raster path).
bool softwareRenderer(const QString& renderer) {
  for (const char* name : {"llvmpipe", "softpipe", "swrast", "SwiftShader"})
    if (renderer.contains(QLatin1String(name), Qt::CaseInsensitive)) return true;
  return false;
}

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
  const Probe probe = probeOpenGL();
  if (!probe.why.isEmpty()) return {PreviewRenderer::Raster, probe.why};
  if (preference == RendererPreference::Auto && softwareRenderer(probe.renderer))
    return {PreviewRenderer::Raster,
            tr("OpenGL here is a software renderer (%1), slower than this path").arg(probe.renderer)};
  return {PreviewRenderer::OpenGL, {}};
}

QString rendererName(PreviewRenderer renderer) {
  return renderer == PreviewRenderer::OpenGL ? QStringLiteral("OpenGL") : QStringLiteral("Raster");
}

}  // namespace convolab::gui
