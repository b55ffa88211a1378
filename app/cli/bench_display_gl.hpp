// SPDX-License-Identifier: MIT
// GlDisplay: the preview's GL paint without a window, for `bench --latency`: EGL headless (a GPU device, or
// Mesa's surfaceless platform), an OpenGL ES 3 context, the frame uploaded into an RGB8 texture and drawn
// scaled into a 1280×720 framebuffer, glFinish before it returns.
#pragma once

#include <memory>
#include <string>

#include "convolab/image.hpp"

namespace convolab::cli::bench {

class GlDisplay {
 public:
  /// Null, with `why`, where no EGL display or GLES 3 context comes up.
  static std::unique_ptr<GlDisplay> open(std::string& why);
  ~GlDisplay();
  GlDisplay(const GlDisplay&) = delete;
  GlDisplay& operator=(const GlDisplay&) = delete;

  /// Uploads `image`, draws it scaled to the target and waits for the GPU (glFinish). Makes the context
  /// current on the calling thread; returns a pixel of the target read back once in a while (kept, so the
  /// work is not optimised away by a driver that skips unread frames).
  std::uint32_t show(const Image& image);
  /// Releases the context from the calling thread, so another thread can show().
  void release();
  /// "EGL device · NVIDIA H100 … · OpenGL ES 3.2 NVIDIA …"
  const std::string& description() const { return m_description; }

  static constexpr int kTargetWidth = 1280;
  static constexpr int kTargetHeight = 720;

 private:
  GlDisplay() = default;
  bool init(std::string& why);

  struct Egl;
  std::unique_ptr<Egl> m_egl;
  std::string m_description;
  unsigned m_texture = 0, m_framebuffer = 0, m_renderbuffer = 0, m_program = 0, m_quad = 0;
  int m_textureWidth = 0, m_textureHeight = 0;
  std::uint64_t m_frames = 0;
};

}  // namespace convolab::cli::bench
