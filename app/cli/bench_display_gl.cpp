// SPDX-License-Identifier: MIT
// GlDisplay (bench_display_gl.hpp): the variants' names, setting up the GL target, shaders and quad, reading
// the target back, the compute kick, and tearing it down. The EGL context and the CL/GL sharing probe are in
// bench_gl_context.cpp, the upload variants in bench_gl_upload.cpp.
#include "bench_display_gl.hpp"

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "bench_gl_context.hpp"
#include "convolab/compute_kick.hpp"
#include "convolab/context.hpp"

namespace convolab::cli::bench {

namespace {

constexpr const char* kVertex = R"(#version 300 es
in vec2 corner;
out vec2 uv;
void main() {
  uv = vec2(corner.x, 1.0 - corner.y);
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
)";

// An RGB8 texture: the sampler filters (GL_LINEAR or GL_NEAREST, set on the texture).
constexpr const char* kFragmentRgb = R"(#version 300 es
precision mediump float;
uniform sampler2D frame;
in vec2 uv;
out vec4 colour;
void main() { colour = vec4(texture(frame, uv).rgb, 1.0); }
)";

// An R8 texture three bytes a pixel wide: each pixel's R, G, B fetched, bilinear filtering done here (the
// hardware would mix neighbouring bytes of different channels).
constexpr const char* kFragmentR8 = R"(#version 300 es
precision highp float;
precision highp int;
uniform highp sampler2D frame;
uniform ivec2 size;  // in pixels
uniform bool bilinear;
in vec2 uv;
out vec4 colour;
vec3 pixel(ivec2 p) {
  p = clamp(p, ivec2(0), size - 1);
  int x = 3 * p.x;
  return vec3(texelFetch(frame, ivec2(x, p.y), 0).r, texelFetch(frame, ivec2(x + 1, p.y), 0).r,
              texelFetch(frame, ivec2(x + 2, p.y), 0).r);
}
void main() {
  vec2 at = uv * vec2(size);
  if (!bilinear) {
    colour = vec4(pixel(ivec2(floor(at))), 1.0);
    return;
  }
  at -= 0.5;
  ivec2 p = ivec2(floor(at));
  vec2 f = at - floor(at);
  vec3 top = mix(pixel(p), pixel(p + ivec2(1, 0)), f.x);
  vec3 bottom = mix(pixel(p + ivec2(0, 1)), pixel(p + ivec2(1, 1)), f.x);
  colour = vec4(mix(top, bottom, f.y), 1.0);
}
)";

GLuint compile(GLenum type, const char* source) {
  const GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  return ok ? shader : 0;
}

GLuint link(const char* fragment) {
  const GLuint vs = compile(GL_VERTEX_SHADER, kVertex), fs = compile(GL_FRAGMENT_SHADER, fragment);
  if (!vs || !fs) return 0;
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glBindAttribLocation(program, 0, "corner");
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  return linked ? program : 0;
}

}  // namespace

std::string GlVariant::name() const {
  std::string n = format == Format::Rgb ? "gl-rgb" : "gl-r8";
  switch (transfer) {
    case Transfer::Client:
      break;
    case Transfer::Pbo:
      n += "-pbo";
      break;
    case Transfer::Direct:
      n += "-direct";
      break;
    case Transfer::DirectPinned:
      n += "-direct-pinned";
      break;
  }
  return n;
}

std::optional<GlVariant> GlVariant::parse(std::string_view text) {
  if (text == "gl") return GlVariant{};
  for (Format f : {Format::Rgb, Format::R8})
    for (Transfer t : {Transfer::Client, Transfer::Pbo, Transfer::Direct, Transfer::DirectPinned}) {
      const GlVariant v{f, t};
      if (text == v.name()) return v;
    }
  return std::nullopt;
}

std::unique_ptr<GlDisplay> GlDisplay::open(std::string& why, GlVariant variant, const Context* cl) {
  std::unique_ptr<GlDisplay> gl(new GlDisplay);
  gl->m_variant = variant;
  if (!gl->init(why, cl)) return nullptr;
  return gl;
}

void GlDisplay::makeCurrent() {
  if (eglGetCurrentContext() != m_egl->context)
    eglMakeCurrent(m_egl->display, m_egl->surface, m_egl->surface, m_egl->context);
}

bool GlDisplay::init(std::string& why, const Context* cl) {
  m_egl = std::make_unique<HeadlessGlContext>();
  std::string platform;
  if (!openHeadlessGlContext(*m_egl, platform, why, kTargetWidth, kTargetHeight)) return false;
  const char* glExtensions = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  // CONVOLAB_BENCH_GL_PERSISTENT=0: the pixel buffer orphaned and mapped each frame (as the app's preview
  // does).
  const char* persistentEnv = std::getenv("CONVOLAB_BENCH_GL_PERSISTENT");
  m_persistent = glExtensions && hasWord(glExtensions, "GL_EXT_buffer_storage") &&
                 eglGetProcAddress("glBufferStorageEXT") != nullptr &&
                 !(persistentEnv && std::string_view(persistentEnv) == "0");

  const char* kickEnv = std::getenv("CONVOLAB_BENCH_GL_KICK");
  if (kickEnv && *kickEnv) {
    const auto kick = parseKick(kickEnv);
    if (!kick) {
      why = std::string("CONVOLAB_BENCH_GL_KICK=") + kickEnv + ": expected 0, kernel, copy or all";
      return false;
    }
    m_kick = *kick;
  }

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
  m_programRgb = link(kFragmentRgb);
  m_programR8 = link(kFragmentR8);
  if (!m_programRgb || !m_programR8) {
    why = platform + ": the shaders did not build";
    return false;
  }
  const GLfloat corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
  glGenBuffers(1, &m_quad);
  glBindBuffer(GL_ARRAY_BUFFER, m_quad);
  glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
  glGenTextures(1, &m_texture);
  glBindTexture(GL_TEXTURE_2D, m_texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  if (glGetError() != GL_NO_ERROR) {
    why = platform + ": a GL error while setting up";
    return false;
  }
  if (cl) {
    m_cl = std::make_unique<EngineClLink>();
    m_cl->engine = cl->context()();
    m_cl->device = cl->clDevice()();
    clRetainContext(m_cl->engine);
    m_interop = probeClGlSharing(*cl, m_egl->display, m_egl->context);
  }
  if (m_variant.transfer == GlVariant::Transfer::DirectPinned && !cl) {
    m_variant.transfer = GlVariant::Transfer::Direct;
    m_fallback = "gl-*-direct-pinned needs the engine's OpenCL context; ran direct";
  }
  m_description = platform + " · " + reinterpret_cast<const char*>(glGetString(GL_RENDERER)) + " · " +
                  reinterpret_cast<const char*>(glGetString(GL_VERSION)) + " · " + m_variant.name();
  if (m_variant.transfer != GlVariant::Transfer::Client)
    m_description +=
        m_persistent ? " (persistently mapped pixel buffer)" : " (pixel buffer mapped per frame)";
  if (m_cl) m_description += std::string(" · compute kick after each frame: ") + kickName(m_kick);
  return true;
}

std::vector<std::uint8_t> GlDisplay::readTarget() {
  makeCurrent();
  glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  const std::size_t row = std::size_t{kTargetWidth} * 4;
  std::vector<std::uint8_t> bottomUp(row * kTargetHeight), topDown(row * kTargetHeight);
  glReadPixels(0, 0, kTargetWidth, kTargetHeight, GL_RGBA, GL_UNSIGNED_BYTE, bottomUp.data());
  for (int y = 0; y < kTargetHeight; ++y)
    std::memcpy(topDown.data() + row * static_cast<std::size_t>(y),
                bottomUp.data() + row * static_cast<std::size_t>(kTargetHeight - 1 - y), row);
  return topDown;
}

std::optional<GlDisplay::Kick> GlDisplay::parseKick(std::string_view text) {
  return ComputeKick::parseWork(text);
}

const char* GlDisplay::kickName(Kick kick) {
  return ComputeKick::workName(kick);
}

void GlDisplay::kickCompute() {
  if (kick() == Kick::None) return;
  EngineClLink& c = *m_cl;
  if (!c.kick) {
    c.kick = std::make_unique<ComputeKick>(c.engine, c.device, m_kick);
    if (!c.kick->ok()) {
      m_fallback = "the compute kick could not be set up: " + c.kick->error() + "; ran without it";
      m_kick = Kick::None;
      c.kick.reset();
      return;
    }
  }
  c.kick->setWork(m_kick);
  c.kick->kick();
  ++m_kicks;
}

std::uint64_t GlDisplay::kickedKernels() {
  return m_cl && m_cl->kick ? m_cl->kick->kernelsRun() : 0;
}

void GlDisplay::release() {
  eglMakeCurrent(m_egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

GlDisplay::~GlDisplay() {
  if (!m_egl || m_egl->display == EGL_NO_DISPLAY) return;
  m_cl.reset();
  if (m_egl->context != EGL_NO_CONTEXT) {
    eglMakeCurrent(m_egl->display, m_egl->surface, m_egl->surface, m_egl->context);
    if (m_mapped) {
      glBindBuffer(GL_PIXEL_UNPACK_BUFFER, m_pixelBuffer);
      glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
    }
    glDeleteBuffers(1, &m_pixelBuffer);
    glDeleteTextures(1, &m_texture);
    glDeleteFramebuffers(1, &m_framebuffer);
    glDeleteRenderbuffers(1, &m_renderbuffer);
    glDeleteBuffers(1, &m_quad);
    glDeleteProgram(m_programRgb);
    glDeleteProgram(m_programR8);
    eglMakeCurrent(m_egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(m_egl->display, m_egl->context);
  }
  if (m_egl->surface != EGL_NO_SURFACE) eglDestroySurface(m_egl->display, m_egl->surface);
  eglTerminate(m_egl->display);
}

}  // namespace convolab::cli::bench
