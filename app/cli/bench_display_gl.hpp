// SPDX-License-Identifier: MIT
// GlDisplay: the preview's GL paint without a window, for `bench --latency`: EGL headless (a GPU device, or
// Mesa's surfaceless platform), an OpenGL ES 3 context, the frame uploaded into a texture and drawn scaled
// into a 1280×720 framebuffer, glFinish before it returns.
//
// How the frame goes up is a variant (GlVariant, CONVOLAB_BENCH_DISPLAY=gl-<format>[-<transfer>]):
//   format   rgb: an RGB8 texture, GL_RGB bytes (3-byte texels: NVIDIA converts them on the CPU)
//            r8:  an R8 texture three times as wide, the same bytes; the shader fetches R, G, B and filters
//   transfer client: glTexSubImage2D from the frame's memory (the driver copies it)
//            pbo:    the frame copied (memcpy) into a persistently mapped pixel buffer, uploaded from it
//            direct: the engine downloads straight into the pixel buffer's mapped memory (target()), one copy
//            direct-pinned: as direct, the mapping also registered with OpenCL (CL_MEM_USE_HOST_PTR)
// After each frame, off the timed path, kickCompute() puts a little OpenCL work on the engine's context
// (CONVOLAB_BENCH_GL_KICK=0|kernel|copy|all, default kernel), so the next frame does not pay the GL → CL
// switch.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "convolab/compute_kick.hpp"
#include "convolab/image.hpp"

namespace convolab {
class Context;
}

namespace convolab::cli::bench {

struct HeadlessGlContext;  // bench_gl_context.hpp
struct EngineClLink;

struct GlVariant {
  enum class Format { Rgb, R8 };
  enum class Transfer { Client, Pbo, Direct, DirectPinned };
  // The default ("gl"): the fastest on the H200 (docs/BENCHMARKS.md, issue 20).
  Format format = Format::Rgb;
  Transfer transfer = Transfer::DirectPinned;

  /// "gl-r8-pbo"
  std::string name() const;
  /// "gl-rgb", "gl-r8-direct", …; "gl" is the default. Nullopt for anything else.
  static std::optional<GlVariant> parse(std::string_view text);
  bool direct() const { return transfer == Transfer::Direct || transfer == Transfer::DirectPinned; }
};

class GlDisplay {
 public:
  /// Null, with `why`, where no EGL display or GLES 3 context comes up. `cl`: the engine's context, for the
  /// direct-pinned variant and the CL/GL sharing probe (interop()); may be null.
  static std::unique_ptr<GlDisplay> open(std::string& why, GlVariant variant = {},
                                         const Context* cl = nullptr);
  ~GlDisplay();
  GlDisplay(const GlDisplay&) = delete;
  GlDisplay& operator=(const GlDisplay&) = delete;

  /// Direct variants: the pixel buffer's mapped memory as a packed width×height frame, for the engine to
  /// download into (then show() it); an empty view for the other variants. Makes the context current.
  MutableImageView target(int width, int height);
  /// Uploads `image` (the view target() gave, for the direct variants), draws it scaled to the target and
  /// waits for the GPU (glFinish). Makes the context current on the calling thread; returns a pixel of the
  /// target read back once in a while (kept, so the work is not optimised away by a driver that skips unread
  /// frames).
  std::uint32_t show(const ImageView& image);
  /// Releases the context from the calling thread, so another thread can show().
  void release();

  /// What kickCompute() enqueues (CONVOLAB_BENCH_GL_KICK=0|kernel|copy|all; default kernel): a
  /// convolab::ComputeKick, the same the app's processing worker runs after each frame its GL preview shows.
  using Kick = ComputeKick::Work;
  static std::optional<Kick> parseKick(std::string_view text);
  static const char* kickName(Kick kick);
  void setKick(Kick kick) { m_kick = kick; }
  Kick kick() const { return m_cl ? m_kick : Kick::None; }
  /// Called after show(), off the timed path: hands the GPU back to the engine's OpenCL context before the
  /// next frame. The first OpenCL work after GL work pays ~0.15 ms inside Engine::process (H200, 1080p and
  /// 4K alike: the gaps around its commands, not the commands), consistent with the GPU or driver switching
  /// from the GL context back to the CL one. Any CL work between frames absorbs it: this enqueues a
  /// one-work-item kernel (Kernel, the default), a 4-byte write and read (Copy) or both (All) on a queue of
  /// the engine's context and flushes it — no wait, no spinning thread; the cost is paid while the pipeline
  /// is idle. The app does the same (ProcessingWorker, after each frame its OpenGL preview presented). No-op
  /// without the engine's context or with Kick::None.
  void kickCompute();
  /// kickCompute() calls that enqueued work; kickedKernels() waits for them and reads the kernel's own count.
  std::uint64_t kicks() const { return m_kicks; }
  std::uint64_t kickedKernels();
  /// Bilinear (the default, as the preview) or nearest sampling; tests compare nearest exactly.
  void setSmooth(bool smooth) { m_smooth = smooth; }
  /// The whole target, RGBA8, top row first (tests).
  std::vector<std::uint8_t> readTarget();

  /// "EGL device · NVIDIA H100 … · OpenGL ES 3.2 NVIDIA … · gl-r8-pbo (persistent)"
  const std::string& description() const { return m_description; }
  /// What cl_khr_gl_sharing does with this EGL context, step by step, with error codes ("" without `cl`).
  const std::string& interop() const { return m_interop; }
  /// Set when a variant could not be set up as asked and what ran instead (e.g. the registration refused).
  const std::string& fallback() const { return m_fallback; }
  const GlVariant& variant() const { return m_variant; }

  static constexpr int kTargetWidth = 1280;
  static constexpr int kTargetHeight = 720;

 private:
  GlDisplay() = default;
  bool init(std::string& why, const Context* cl);
  void makeCurrent();
  void ensureTexture(int width, int height);
  /// A pixel buffer of `bytes`, mapped (persistently where GL_EXT_buffer_storage exists).
  std::uint8_t* mapPixelBuffer(std::size_t bytes);

  std::unique_ptr<HeadlessGlContext> m_egl;
  std::unique_ptr<EngineClLink> m_cl;
  GlVariant m_variant;
  std::string m_description, m_interop, m_fallback;
  bool m_smooth = true;
  bool m_persistent = false;  // GL_EXT_buffer_storage: the pixel buffer stays mapped
  unsigned m_texture = 0, m_framebuffer = 0, m_renderbuffer = 0, m_quad = 0, m_pixelBuffer = 0;
  unsigned m_programRgb = 0, m_programR8 = 0;
  int m_textureWidth = 0, m_textureHeight = 0;
  std::size_t m_pixelBufferBytes = 0;
  std::uint8_t* m_mapped = nullptr;
  std::uint64_t m_frames = 0;
  Kick m_kick = Kick::Kernel;
  std::uint64_t m_kicks = 0;
};

}  // namespace convolab::cli::bench
