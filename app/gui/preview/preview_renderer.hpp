// SPDX-License-Identifier: MIT
// Which back-end paints the preview: OpenGL where a usable context exists, the raster (QPainter on the CPU)
// path otherwise or when asked for.
#pragma once

#include <QString>

#include "preview/preview_canvas.hpp"

namespace convolab::gui {

/// The wish, from the setting view/renderer or the environment variable CONVOLAB_PREVIEW (which wins):
/// "auto" (or empty, or unknown: OpenGL when usable), "opengl", "raster".
enum class RendererPreference { Auto, OpenGL, Raster };
RendererPreference parseRendererPreference(const QString& text);
/// The setting's value with CONVOLAB_PREVIEW applied over it.
RendererPreference rendererPreference(const QString& setting);

struct RendererChoice {
  PreviewRenderer renderer = PreviewRenderer::Raster;
  /// Why raster was chosen (empty for OpenGL, and for raster asked for by name).
  QString why;
};

/// Decides the back-end: for Auto and OpenGL, an OpenGL context is created and made current on an offscreen
/// surface first (desktop GL 2.0 or GLES 3.0: shaders and row-length uploads); failing that, raster. Auto
/// also takes raster where the OpenGL is a software rasteriser (llvmpipe and the like): slower there.
RendererChoice chooseRenderer(RendererPreference preference);

/// Whether GL_RENDERER names a CPU rasteriser (llvmpipe, softpipe, swrast, SwiftShader).
bool softwareRenderer(const QString& renderer);

/// "OpenGL" / "Raster", as the statistics and About show it.
QString rendererName(PreviewRenderer renderer);

}  // namespace convolab::gui
