// SPDX-License-Identifier: MIT
// The GL display's (bench_display_gl.hpp) plumbing below GL: the headless EGL context it draws in, the
// engine's OpenCL context it hands the GPU back to and registers its pixel buffer with, and the probe of what
// cl_khr_gl_sharing does with the two.
#pragma once

#include <CL/cl_gl.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include <memory>
#include <string>

#include "convolab/compute_kick.hpp"

namespace convolab {
class Context;
}

namespace convolab::cli::bench {

struct HeadlessGlContext {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  EGLSurface surface = EGL_NO_SURFACE;  // a pbuffer where surfaceless contexts are not offered
};

/// An OpenGL ES 3 context on a headless display (the first EGL device, else Mesa's surfaceless platform, else
/// the default display), made current. `platform` names the display; false, with `why`, where a step fails
/// (what came up so far is left in `egl`, for the caller to destroy).
bool openHeadlessGlContext(HeadlessGlContext& egl, std::string& platform, std::string& why, int pbufferWidth,
                           int pbufferHeight);

/// The engine's OpenCL side of the display: its context (retained), the direct-pinned variant's registration
/// of the pixel buffer's mapping, and the compute kick.
struct EngineClLink {
  cl_context engine = nullptr;  // the engine's, retained
  cl_mem registered = nullptr;
  cl_device_id device = nullptr;
  // kickCompute(): made on the first kick (its queue and kernel on the engine's context, retained).
  std::unique_ptr<ComputeKick> kick;
  EngineClLink() = default;
  EngineClLink(const EngineClLink&) = delete;
  EngineClLink& operator=(const EngineClLink&) = delete;
  ~EngineClLink();
};

/// What cl_khr_gl_sharing does with this EGL context (current), step by step, with error codes.
std::string probeClGlSharing(const Context& cl, EGLDisplay display, EGLContext context);

/// "CL_INVALID_VALUE (-30)"
std::string clCode(cl_int code);
/// Whether the space-separated `list` has `word`.
bool hasWord(const std::string& list, const char* word);

}  // namespace convolab::cli::bench
