// SPDX-License-Identifier: MIT
// ComputeKick: a little OpenCL work on a context, enqueued on its own queue and flushed, never waited for.
// With OpenGL drawing in the same process, the first OpenCL work after a GL draw pays a context switch on
// NVIDIA (~0.15 ms of host time inside Engine::process at 1080p and 4K alike, H200: the gaps around its
// commands, not the commands). Any CL work between frames absorbs it; a kick after each displayed frame,
// while the pipeline is idle, takes it off the next frame's path. Used by `bench --latency` after each GL
// frame and by the app's processing worker after each frame the OpenGL preview presented.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace convolab {

class Context;

class ComputeKick {
 public:
  /// What kick() enqueues: a one-work-item kernel that counts its runs (Kernel, the default), a 4-byte
  /// write and read (Copy: the copy engines' turn), both (All), or nothing (None).
  enum class Work { None, Kernel, Copy, All };
  /// "0" (also "none", "off"), "kernel", "copy", "all"; nullopt for anything else.
  static std::optional<Work> parseWork(std::string_view text);
  static const char* workName(Work work);

  /// Creates its queue, a 16-byte buffer and the kernel (built once, here) on `context` for `device`; both
  /// are retained. A failure leaves it inert: ok() false, error() says which call, kick() does nothing.
  ComputeKick(cl_context context, cl_device_id device, Work work = Work::Kernel);
  explicit ComputeKick(const Context& context, Work work = Work::Kernel);
  ~ComputeKick();
  ComputeKick(const ComputeKick&) = delete;
  ComputeKick& operator=(const ComputeKick&) = delete;

  bool ok() const { return m_error.empty(); }
  const std::string& error() const { return m_error; }
  Work work() const { return m_work; }
  void setWork(Work work) { m_work = work; }

  /// Enqueues the work and flushes the queue: no wait, no spinning (~0.02 ms of host time on an H200).
  /// True when work was enqueued (false when inert, Work::None, or an enqueue failed).
  bool kick();
  /// kick() calls that enqueued work.
  std::uint64_t kicks() const { return m_kicks; }
  /// Waits for the queue and reads the kernel's own count of its runs (tests).
  std::uint64_t kernelsRun();

 private:
  void setUp();

  cl_context m_context = nullptr;
  cl_device_id m_device = nullptr;
  cl_command_queue m_queue = nullptr;
  cl_program m_program = nullptr;
  cl_kernel m_kernel = nullptr;
  cl_mem m_buffer = nullptr;
  std::uint32_t m_host[2] = {0, 0};  // the copy's source and destination (alive while it is in flight)
  Work m_work;
  std::uint64_t m_kicks = 0;
  std::string m_error;
};

}  // namespace convolab
