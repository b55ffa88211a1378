// SPDX-License-Identifier: MIT
// An OpenCL context on one device, with a profiling-enabled in-order queue and cached program builds.
#pragma once

#include <CL/opencl.hpp>
#include <atomic>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "convolab/device.hpp"
#include "convolab/program_cache.hpp"

namespace convolab {

/// One program build through a Context, for people who want to read what ran (the kernel source view).
struct BuildInfo {
  std::string label;    ///< the kernel file's name, or e.g. "codegen"
  std::string source;   ///< the exact OpenCL C source given to the compiler (common.cl included)
  std::string options;  ///< the build options as passed (-D list and flags)
  double buildMs = 0;   ///< host time of the build, or of loading the cached binary
  bool fromCache = false;
};

/// One kernel launch: its name and NDRange sizes (local empty: the runtime chose).
struct LaunchInfo {
  std::string kernel;
  std::vector<std::size_t> global, local;
};

class Context {
 public:
  /// Opens the device chosen by `deviceSpec` (see selectDevice). Throws Error(Device) on failure.
  explicit Context(const std::string& deviceSpec = {});
  explicit Context(const DeviceInfo& device);

  const DeviceInfo& device() const { return m_info; }
  const cl::Context& context() const { return m_context; }
  const cl::Device& clDevice() const { return m_device; }
  cl::CommandQueue& queue() { return m_queue; }
  /// Extra profiling queues for host↔device copies (0: uploads, 1: downloads), created on first use,
  /// so copies of one frame overlap the kernels of another (see FrameStream).
  cl::CommandQueue& transferQueue(int index);

  /// Builds (or loads from the on-disk cache) a program from the embedded kernel `kernelName`
  /// (kernels/<name>.cl) with common.cl prepended and its `#include "x.cl"` fragments resolved from the
  /// embedded table. Throws BuildError with the log on failure.
  cl::Program buildKernelProgram(const std::string& kernelName, const std::string& options);
  /// Same for arbitrary source (codegen). `label` names it in errors and logs.
  /// Both return the program built before from the same source and options while the program pool (shared
  /// with siblings) still holds it: strategies and auto's measurements that ask for one program again get
  /// the same object instead of a new one.
  cl::Program buildProgram(const std::string& source, const std::string& options, const std::string& label);

  /// Programs the pool holds now (the most recently used; at most programPoolCapacity()).
  std::size_t programsHeld() const;
  std::size_t programPoolCapacity() const;
  /// Bounds the pool (tests; default kProgramPoolCapacity); the least recently used programs are dropped.
  void setProgramPoolCapacity(std::size_t capacity);
  /// Room for the programs of about two filter structures (auto measures ~20 per structure). Each held
  /// program costs ~2 MiB on PoCL 3.1 (built from source or from a cached binary), so the pool's capacity is
  /// what bounds program memory: a dropped program's memory comes back (160 distinct programs built and
  /// released, or 6 cycled 60 times through a pool of 4: RSS flat to 0.1 MiB), and one asked for again is
  /// re-created from the on-disk cache without a compile. docs/RELIABILITY.md has the measurements.
  static constexpr std::size_t kProgramPoolCapacity = 48;

  ProgramCache& programCache() { return m_cache; }

  /// The last builds and launches through this context, oldest first (at most kActivityLogSize each;
  /// copies: a LiteralBaker's background build records into the same log while the caller's thread builds
  /// and enqueues). clearActivityLog() starts a new record.
  std::vector<BuildInfo> buildLog() const;
  std::vector<LaunchInfo> launchLog() const;
  void clearActivityLog();
  /// Called by the strategies' launch helper for every kernel enqueued.
  void recordLaunch(const std::string& kernel, const cl::NDRange& global, const cl::NDRange& local);
  static constexpr std::size_t kActivityLogSize = 32;

  /// Programs this context has created (from source or a cached binary): a change means a build or a load
  /// happened (the live path warms up only then).
  std::size_t programsCreated() const { return m_programsCreated.load(); }

  /// A context on the same device and OpenCL context (programs, buffers and pinned memory are shared) with
  /// its own profiling queue, so one thread's work (auto's measurements, builds) does not queue behind
  /// another's.
  std::shared_ptr<Context> sibling() const;

 private:
  struct SiblingTag {};
  Context(const Context& other, SiblingTag);

  DeviceInfo m_info;
  cl::Device m_device;
  cl::Context m_context;
  cl::CommandQueue m_queue;
  cl::CommandQueue m_transfer[2];
  ProgramCache m_cache;
  mutable std::mutex m_activityMutex;  ///< guards m_builds and m_launches
  std::vector<BuildInfo> m_builds;
  std::vector<LaunchInfo> m_launches;
  std::atomic<std::size_t> m_programsCreated{0};
  struct ProgramPool;
  std::shared_ptr<ProgramPool> m_pool;  ///< shared with siblings
};

/// Source of an embedded kernel file (kernels/<name>.cl); throws Error(Device) when unknown.
std::string_view kernelSource(std::string_view name);

}  // namespace convolab
