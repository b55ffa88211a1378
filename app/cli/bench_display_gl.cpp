// SPDX-License-Identifier: MIT
#include "bench_display_gl.hpp"

#include <CL/cl_gl.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "convolab/compute_kick.hpp"
#include "convolab/context.hpp"
#include "convolab/error.hpp"

// GL_EXT_buffer_storage (GLES): declared here, gl2ext.h needs gl2platform.h's macros before it.
#ifndef GL_MAP_PERSISTENT_BIT_EXT
#define GL_MAP_PERSISTENT_BIT_EXT 0x0040
#define GL_MAP_COHERENT_BIT_EXT 0x0080
#endif
using BufferStorageExt = void(GL_APIENTRY*)(GLenum target, GLsizeiptr size, const void* data,
                                            GLbitfield flags);

namespace convolab::cli::bench {

struct GlDisplay::Egl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  EGLSurface surface = EGL_NO_SURFACE;  // a pbuffer where surfaceless contexts are not offered
};

// The direct-pinned variant's registration of the pixel buffer's mapping with OpenCL.
struct GlDisplay::Cl {
  cl_context context = nullptr;  // the probe's shared context, while it runs
  cl_context engine = nullptr;   // the engine's, retained
  cl_mem registered = nullptr;
  cl_device_id device = nullptr;
  // kickCompute(): made on the first kick (its queue and kernel on the engine's context, retained).
  std::unique_ptr<ComputeKick> kick;
  ~Cl() {
    kick.reset();
    if (registered) clReleaseMemObject(registered);
    if (context) clReleaseContext(context);
    if (engine) clReleaseContext(engine);
  }
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

std::string clCode(cl_int code) {
  std::string name = code == CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR ? "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR"
                                                                    : clErrorName(code);
  return name + " (" + std::to_string(code) + ")";
}

bool hasWord(const std::string& list, const char* word) {
  const std::string w = word;
  for (std::size_t at = list.find(w); at != std::string::npos; at = list.find(w, at + 1)) {
    const bool startOk = at == 0 || list[at - 1] == ' ';
    const bool endOk = at + w.size() == list.size() || list[at + w.size()] == ' ';
    if (startOk && endOk) return true;
  }
  return false;
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
    m_cl = std::make_unique<Cl>();
    m_cl->engine = cl->context()();
    m_cl->device = cl->clDevice()();
    clRetainContext(m_cl->engine);
    probeSharing(*cl);
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

// cl_khr_gl_sharing with this EGL context: the extension, the context's device, a shared CL context, a GL
// buffer made a CL buffer, acquired and released. Each step's result is written down; the first failure ends
// it.
void GlDisplay::probeSharing(const Context& cl) {
  const cl_device_id device = cl.clDevice()();
  cl_platform_id platform = nullptr;
  clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr);
  std::string ext;
  std::size_t size = 0;
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size);
  ext.resize(size);
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, ext.data(), nullptr);
  ext.resize(std::strlen(ext.c_str()));
  std::string& s = m_interop;
  s = "interop (" + cl.device().name + "):";
  for (const char* e : {"cl_khr_gl_sharing", "cl_khr_egl_image", "cl_khr_gl_event", "cl_khr_egl_event"})
    s += std::string(" ") + e + (hasWord(ext, e) ? " yes" : " no") + ";";
  // Without the extension the calls are tried all the same: their error codes say what the driver does.
  if (!hasWord(ext, "cl_khr_gl_sharing")) s += " (tried all the same)";
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                              reinterpret_cast<cl_context_properties>(platform),
                                              CL_GL_CONTEXT_KHR,
                                              reinterpret_cast<cl_context_properties>(m_egl->context),
                                              CL_EGL_DISPLAY_KHR,
                                              reinterpret_cast<cl_context_properties>(m_egl->display),
                                              0};
  auto getGlContextInfo = reinterpret_cast<clGetGLContextInfoKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clGetGLContextInfoKHR"));
  if (getGlContextInfo) {
    cl_device_id current = nullptr;
    const cl_int e =
        getGlContextInfo(properties, CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR, sizeof current, &current, nullptr);
    s += " clGetGLContextInfoKHR(CL_EGL_DISPLAY_KHR + CL_GL_CONTEXT_KHR) → " + clCode(e) +
         (e == CL_SUCCESS ? (current == device ? ", this device" : ", another device") : "") + ";";
  } else {
    s += " clGetGLContextInfoKHR not exported;";
  }
  cl_int e = CL_SUCCESS;
  m_cl->context = clCreateContext(properties, 1, &device, nullptr, nullptr, &e);
  s += " clCreateContext(CL_EGL_DISPLAY_KHR + CL_GL_CONTEXT_KHR) → " + clCode(e);
  if (e != CL_SUCCESS || !m_cl->context) {
    m_cl->context = nullptr;
    s += ": the driver refuses to share with this EGL context, no zero-copy path";
    return;
  }
  if (!hasWord(ext, "cl_khr_gl_sharing")) {
    // Not shared whatever the context call said (PoCL accepts the properties, then aborts in
    // clCreateFromGLBuffer).
    s += ", but the device does not offer cl_khr_gl_sharing: no zero-copy path";
    clReleaseContext(m_cl->context);
    m_cl->context = nullptr;
    return;
  }
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
  glBufferData(GL_PIXEL_UNPACK_BUFFER, 1 << 16, nullptr, GL_STREAM_DRAW);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glFinish();
  cl_mem shared = clCreateFromGLBuffer(m_cl->context, CL_MEM_WRITE_ONLY, buffer, &e);
  s += "; clCreateFromGLBuffer → " + clCode(e);
  if (e == CL_SUCCESS) {
    cl_command_queue queue = clCreateCommandQueue(m_cl->context, device, 0, &e);
    if (e == CL_SUCCESS) {
      e = clEnqueueAcquireGLObjects(queue, 1, &shared, 0, nullptr, nullptr);
      s += "; acquire → " + clCode(e);
      if (e == CL_SUCCESS) {
        e = clEnqueueReleaseGLObjects(queue, 1, &shared, 0, nullptr, nullptr);
        s += "; release → " + clCode(e);
      }
      clFinish(queue);
      clReleaseCommandQueue(queue);
    }
    clReleaseMemObject(shared);
  }
  glDeleteBuffers(1, &buffer);
  clReleaseContext(m_cl->context);
  m_cl->context = nullptr;
}

void GlDisplay::ensureTexture(int width, int height) {
  glBindTexture(GL_TEXTURE_2D, m_texture);
  if (width == m_textureWidth && height == m_textureHeight) return;
  if (m_variant.format == GlVariant::Format::Rgb)
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, width, height, 0, GL_RGB, GL_UNSIGNED_BYTE, nullptr);
  else
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, 3 * width, height, 0, GL_RED, GL_UNSIGNED_BYTE, nullptr);
  m_textureWidth = width;
  m_textureHeight = height;
}

std::uint8_t* GlDisplay::mapPixelBuffer(std::size_t bytes) {
  if (!m_pixelBuffer) glGenBuffers(1, &m_pixelBuffer);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, m_pixelBuffer);
  if (bytes != m_pixelBufferBytes) {
    if (m_cl && m_cl->registered) clReleaseMemObject(m_cl->registered), m_cl->registered = nullptr;
    if (m_mapped) glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
    m_mapped = nullptr;
    if (m_persistent) {
      // Immutable storage cannot be resized: a new buffer.
      glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
      glDeleteBuffers(1, &m_pixelBuffer);
      glGenBuffers(1, &m_pixelBuffer);
      glBindBuffer(GL_PIXEL_UNPACK_BUFFER, m_pixelBuffer);
      static const auto bufferStorage =
          reinterpret_cast<BufferStorageExt>(eglGetProcAddress("glBufferStorageEXT"));
      bufferStorage(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr,
                    GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT_EXT | GL_MAP_COHERENT_BIT_EXT);
    } else {
      glBufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_DRAW);
    }
    m_pixelBufferBytes = bytes;
  }
  if (!m_mapped) {
    // Orphaned first, as the app's preview does (QOpenGLBuffer::allocate), then mapped with invalidation.
    if (!m_persistent)
      glBufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_DRAW);
    const GLbitfield access = m_persistent
                                  ? GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT_EXT | GL_MAP_COHERENT_BIT_EXT
                                  : GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT;
    m_mapped = static_cast<std::uint8_t*>(
        glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, static_cast<GLsizeiptr>(bytes), access));
  }
  if (m_mapped && m_variant.transfer == GlVariant::Transfer::DirectPinned && m_cl && !m_cl->registered) {
    // The engine's context learns the mapping as host memory of a buffer (CL_MEM_USE_HOST_PTR): a driver that
    // pins such memory then downloads into it by DMA. Only a persistent mapping keeps its address.
    cl_int e = CL_SUCCESS;
    if (m_persistent)
      m_cl->registered =
          clCreateBuffer(m_cl->engine, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, m_mapped, &e);
    if (!m_persistent || e != CL_SUCCESS) {
      m_cl->registered = nullptr;
      m_fallback = m_persistent
                       ? "clCreateBuffer(CL_MEM_USE_HOST_PTR) on the mapping → " + clCode(e) + "; ran direct"
                       : "no persistent mapping (GL_EXT_buffer_storage) to register; ran direct";
      m_variant.transfer = GlVariant::Transfer::Direct;
    }
  }
  return m_mapped;
}

MutableImageView GlDisplay::target(int width, int height) {
  if (!m_variant.direct()) return {};
  makeCurrent();
  const std::size_t stride = static_cast<std::size_t>(width) * kBytesPerPixel;
  std::uint8_t* p = mapPixelBuffer(stride * static_cast<std::size_t>(height));
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  return {p, width, height, stride};
}

std::uint32_t GlDisplay::show(const ImageView& image) {
  makeCurrent();
  ensureTexture(image.width, image.height);
  const void* source = image.data;
  const std::size_t rowBytes = static_cast<std::size_t>(image.width) * kBytesPerPixel;
  std::size_t stride = image.stride;
  if (m_variant.transfer != GlVariant::Transfer::Client) {
    if (!m_variant.direct() || image.data != m_mapped) {
      // pbo (or a direct variant handed other memory): copy the rows into the pixel buffer.
      std::uint8_t* p = mapPixelBuffer(rowBytes * static_cast<std::size_t>(image.height));
      for (int y = 0; y < image.height; ++y)
        std::memcpy(p + rowBytes * static_cast<std::size_t>(y), image.row(y), rowBytes);
      stride = rowBytes;
    }
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, m_pixelBuffer);
    if (!m_persistent) {
      glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
      m_mapped = nullptr;
    }
    source = nullptr;  // offset 0 in the pixel buffer
  }
  // Rows `stride` bytes apart, any width. R8: alignment 1 and the stride as the row length (one byte a
  // texel). RGB: the alignment that pads a row to the stride, else the row length in pixels; a stride that is
  // neither (not a multiple of 3, more than 7 bytes of padding) goes up row by row.
  const bool rgb = m_variant.format == GlVariant::Format::Rgb;
  GLint alignment = 1, rowLength = static_cast<GLint>(stride);
  bool rows = false;
  if (rgb) {
    rowLength = static_cast<GLint>(stride / kBytesPerPixel);
    for (const GLint a : {1, 2, 4, 8})
      if ((rowBytes + a - 1) / a * a == stride) {
        alignment = a;
        rowLength = 0;
        break;
      }
    rows = rowLength != 0 && stride % kBytesPerPixel != 0;
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, alignment);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, rows ? 0 : rowLength);
  if (rows) {
    for (int y = 0; y < image.height; ++y)
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, y, image.width, 1, GL_RGB, GL_UNSIGNED_BYTE, image.row(y));
  } else if (rgb) {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, image.width, image.height, GL_RGB, GL_UNSIGNED_BYTE, source);
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 3 * image.width, image.height, GL_RED, GL_UNSIGNED_BYTE, source);
  }
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);

  const GLint filter = rgb && m_smooth ? GL_LINEAR : GL_NEAREST;
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
  glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer);
  glViewport(0, 0, kTargetWidth, kTargetHeight);
  const GLuint program = rgb ? m_programRgb : m_programR8;
  glUseProgram(program);
  if (!rgb) {
    glUniform2i(glGetUniformLocation(program, "size"), image.width, image.height);
    glUniform1i(glGetUniformLocation(program, "bilinear"), m_smooth ? 1 : 0);
  }
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
  Cl& c = *m_cl;
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
