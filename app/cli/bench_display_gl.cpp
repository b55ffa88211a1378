// SPDX-License-Identifier: MIT
#include "bench_display_gl.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include <cstring>
#include <vector>

namespace convolab::cli::bench {

struct GlDisplay::Egl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  EGLSurface surface = EGL_NO_SURFACE;  // a pbuffer where surfaceless contexts are not offered
};

namespace {

constexpr const char* kVertex = R"(#version 300 es
in vec2 corner;
out vec2 uv;
void main() {
  uv = vec2(corner.x, 1.0 - corner.y);
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
)";

constexpr const char* kFragment = R"(#version 300 es
precision mediump float;
uniform sampler2D frame;
in vec2 uv;
out vec4 colour;
void main() { colour = vec4(texture(frame, uv).rgb, 1.0); }
)";

// A headless display: the first EGL device (NVIDIA and Mesa offer them), else Mesa's surfaceless platform,
// else the default display. `name` says which.
EGLDisplay headlessDisplay(std::string& name) {
  auto queryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto platformDisplay =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (queryDevices && platformDisplay) {
    EGLDeviceEXT devices[8];
    EGLint count = 0;
    if (queryDevices(8, devices, &count) && count > 0)
      for (EGLint i = 0; i < count; ++i) {
        EGLDisplay d = platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
        if (d != EGL_NO_DISPLAY && eglInitialize(d, nullptr, nullptr)) {
          name = "EGL device " + std::to_string(i);
          return d;
        }
      }
    EGLDisplay d = platformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (d != EGL_NO_DISPLAY && eglInitialize(d, nullptr, nullptr)) {
      name = "EGL surfaceless";
      return d;
    }
  }
  EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (d != EGL_NO_DISPLAY && eglInitialize(d, nullptr, nullptr)) {
    name = "EGL default display";
    return d;
  }
  return EGL_NO_DISPLAY;
}

GLuint compile(GLenum type, const char* source) {
  const GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  return ok ? shader : 0;
}

}  // namespace

std::unique_ptr<GlDisplay> GlDisplay::open(std::string& why) {
  std::unique_ptr<GlDisplay> gl(new GlDisplay);
  if (!gl->init(why)) return nullptr;
  return gl;
}

bool GlDisplay::init(std::string& why) {
  m_egl = std::make_unique<Egl>();
  std::string platform;
  m_egl->display = headlessDisplay(platform);
  if (m_egl->display == EGL_NO_DISPLAY) {
    why = "no EGL display (no GPU device, no surfaceless platform)";
    return false;
  }
  if (!eglBindAPI(EGL_OPENGL_ES_API)) {
    why = "EGL offers no OpenGL ES";
    return false;
  }
  const EGLint configAttributes[] = {EGL_SURFACE_TYPE,
                                     EGL_PBUFFER_BIT,
                                     EGL_RENDERABLE_TYPE,
                                     EGL_OPENGL_ES3_BIT,
                                     EGL_RED_SIZE,
                                     8,
                                     EGL_GREEN_SIZE,
                                     8,
                                     EGL_BLUE_SIZE,
                                     8,
                                     EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  if (!eglChooseConfig(m_egl->display, configAttributes, &config, 1, &configs) || configs < 1) {
    why = platform + ": no OpenGL ES 3 configuration";
    return false;
  }
  const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
  m_egl->context = eglCreateContext(m_egl->display, config, EGL_NO_CONTEXT, contextAttributes);
  if (m_egl->context == EGL_NO_CONTEXT) {
    why = platform + ": no OpenGL ES 3 context";
    return false;
  }
  const char* extensions = eglQueryString(m_egl->display, EGL_EXTENSIONS);
  if (!extensions || !std::strstr(extensions, "EGL_KHR_surfaceless_context")) {
    const EGLint pbuffer[] = {EGL_WIDTH, kTargetWidth, EGL_HEIGHT, kTargetHeight, EGL_NONE};
    m_egl->surface = eglCreatePbufferSurface(m_egl->display, config, pbuffer);
  }
  if (!eglMakeCurrent(m_egl->display, m_egl->surface, m_egl->surface, m_egl->context)) {
    why = platform + ": the context cannot be made current";
    return false;
  }
  m_description = platform + " · " + reinterpret_cast<const char*>(glGetString(GL_RENDERER)) + " · " +
                  reinterpret_cast<const char*>(glGetString(GL_VERSION));

  // The target: a 1280×720 RGBA8 framebuffer, as a preview of that size would be.
  glGenRenderbuffers(1, &m_renderbuffer);
  glBindRenderbuffer(GL_RENDERBUFFER, m_renderbuffer);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kTargetWidth, kTargetHeight);
  glGenFramebuffers(1, &m_framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m_renderbuffer);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    why = platform + ": the 1280×720 framebuffer is incomplete";
    return false;
  }
  const GLuint vs = compile(GL_VERTEX_SHADER, kVertex), fs = compile(GL_FRAGMENT_SHADER, kFragment);
  m_program = glCreateProgram();
  glAttachShader(m_program, vs);
  glAttachShader(m_program, fs);
  glBindAttribLocation(m_program, 0, "corner");
  glLinkProgram(m_program);
  GLint linked = 0;
  glGetProgramiv(m_program, GL_LINK_STATUS, &linked);
  if (!vs || !fs || !linked) {
    why = platform + ": the shaders did not build";
    return false;
  }
  const GLfloat corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
  glGenBuffers(1, &m_quad);
  glBindBuffer(GL_ARRAY_BUFFER, m_quad);
  glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
  glGenTextures(1, &m_texture);
  glBindTexture(GL_TEXTURE_2D, m_texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  if (glGetError() != GL_NO_ERROR) {
    why = platform + ": a GL error while setting up";
    return false;
  }
  return true;
}

std::uint32_t GlDisplay::show(const Image& image) {
  if (eglGetCurrentContext() != m_egl->context)
    eglMakeCurrent(m_egl->display, m_egl->surface, m_egl->surface, m_egl->context);
  glBindTexture(GL_TEXTURE_2D, m_texture);
  if (image.width != m_textureWidth || image.height != m_textureHeight) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, image.width, image.height, 0, GL_RGB, GL_UNSIGNED_BYTE, nullptr);
    m_textureWidth = image.width;
    m_textureHeight = image.height;
  }
  // The row stride through the row length (in pixels) and byte alignment, as the preview uploads it.
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, static_cast<GLint>(image.stride / kBytesPerPixel));
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, image.width, image.height, GL_RGB, GL_UNSIGNED_BYTE,
                  image.pixels.data());
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer);
  glViewport(0, 0, kTargetWidth, kTargetHeight);
  glUseProgram(m_program);
  glBindBuffer(GL_ARRAY_BUFFER, m_quad);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  std::uint32_t pixel = 0;
  if (m_frames++ % 64 == 0)
    glReadPixels(kTargetWidth / 2, kTargetHeight / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, &pixel);
  glFinish();
  return pixel;
}

void GlDisplay::release() {
  eglMakeCurrent(m_egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

GlDisplay::~GlDisplay() {
  if (!m_egl || m_egl->display == EGL_NO_DISPLAY) return;
  if (m_egl->context != EGL_NO_CONTEXT) {
    eglMakeCurrent(m_egl->display, m_egl->surface, m_egl->surface, m_egl->context);
    glDeleteTextures(1, &m_texture);
    glDeleteFramebuffers(1, &m_framebuffer);
    glDeleteRenderbuffers(1, &m_renderbuffer);
    glDeleteBuffers(1, &m_quad);
    glDeleteProgram(m_program);
    eglMakeCurrent(m_egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(m_egl->display, m_egl->context);
  }
  if (m_egl->surface != EGL_NO_SURFACE) eglDestroySurface(m_egl->display, m_egl->surface);
  eglTerminate(m_egl->display);
}

}  // namespace convolab::cli::bench
