// SPDX-License-Identifier: MIT
// The headless EGL context of bench --latency's GL display and the probe of what cl_khr_gl_sharing does with
// it (bench_gl_context.hpp).
#include "bench_gl_context.hpp"

#include <cstring>

#include "convolab/context.hpp"
#include "convolab/error.hpp"

namespace convolab::cli::bench {

EngineClLink::~EngineClLink() {
  kick.reset();
  if (registered) clReleaseMemObject(registered);
  if (engine) clReleaseContext(engine);
}

namespace {

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

}  // namespace

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

bool openHeadlessGlContext(HeadlessGlContext& egl, std::string& platform, std::string& why, int pbufferWidth,
                           int pbufferHeight) {
  egl.display = headlessDisplay(platform);
  if (egl.display == EGL_NO_DISPLAY) {
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
  if (!eglChooseConfig(egl.display, configAttributes, &config, 1, &configs) || configs < 1) {
    why = platform + ": no OpenGL ES 3 configuration";
    return false;
  }
  const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
  egl.context = eglCreateContext(egl.display, config, EGL_NO_CONTEXT, contextAttributes);
  if (egl.context == EGL_NO_CONTEXT) {
    why = platform + ": no OpenGL ES 3 context";
    return false;
  }
  const char* extensions = eglQueryString(egl.display, EGL_EXTENSIONS);
  if (!extensions || !std::strstr(extensions, "EGL_KHR_surfaceless_context")) {
    const EGLint pbuffer[] = {EGL_WIDTH, pbufferWidth, EGL_HEIGHT, pbufferHeight, EGL_NONE};
    egl.surface = eglCreatePbufferSurface(egl.display, config, pbuffer);
  }
  if (!eglMakeCurrent(egl.display, egl.surface, egl.surface, egl.context)) {
    why = platform + ": the context cannot be made current";
    return false;
  }
  return true;
}

// cl_khr_gl_sharing with this EGL context: the extension, the context's device, a shared CL context, a GL
// buffer made a CL buffer, acquired and released. Each step's result is written down; the first failure ends
// it.
std::string probeClGlSharing(const Context& cl, EGLDisplay display, EGLContext context) {
  const cl_device_id device = cl.clDevice()();
  cl_platform_id platform = nullptr;
  clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr);
  std::string ext;
  std::size_t size = 0;
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size);
  ext.resize(size);
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, ext.data(), nullptr);
  ext.resize(std::strlen(ext.c_str()));
  std::string s = "interop (" + cl.device().name + "):";
  for (const char* e : {"cl_khr_gl_sharing", "cl_khr_egl_image", "cl_khr_gl_event", "cl_khr_egl_event"})
    s += std::string(" ") + e + (hasWord(ext, e) ? " yes" : " no") + ";";
  // Without the extension the calls are tried all the same: their error codes say what the driver does.
  if (!hasWord(ext, "cl_khr_gl_sharing")) s += " (tried all the same)";
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                              reinterpret_cast<cl_context_properties>(platform),
                                              CL_GL_CONTEXT_KHR,
                                              reinterpret_cast<cl_context_properties>(context),
                                              CL_EGL_DISPLAY_KHR,
                                              reinterpret_cast<cl_context_properties>(display),
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
  cl_context sharedContext = clCreateContext(properties, 1, &device, nullptr, nullptr, &e);
  s += " clCreateContext(CL_EGL_DISPLAY_KHR + CL_GL_CONTEXT_KHR) → " + clCode(e);
  if (e != CL_SUCCESS || !sharedContext) {
    s += ": the driver refuses to share with this EGL context, no zero-copy path";
    return s;
  }
  if (!hasWord(ext, "cl_khr_gl_sharing")) {
    // Not shared whatever the context call said (PoCL accepts the properties, then aborts in
    // clCreateFromGLBuffer).
    s += ", but the device does not offer cl_khr_gl_sharing: no zero-copy path";
    clReleaseContext(sharedContext);
    return s;
  }
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
  glBufferData(GL_PIXEL_UNPACK_BUFFER, 1 << 16, nullptr, GL_STREAM_DRAW);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glFinish();
  cl_mem shared = clCreateFromGLBuffer(sharedContext, CL_MEM_WRITE_ONLY, buffer, &e);
  s += "; clCreateFromGLBuffer → " + clCode(e);
  if (e == CL_SUCCESS) {
    cl_command_queue queue = clCreateCommandQueue(sharedContext, device, 0, &e);
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
  clReleaseContext(sharedContext);
  return s;
}

}  // namespace convolab::cli::bench
