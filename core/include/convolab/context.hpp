// An OpenCL context on one device, with a profiling-enabled in-order queue and cached program builds.
#pragma once

#include <CL/opencl.hpp>
#include <filesystem>
#include <memory>
#include <string>

#include "convolab/device.hpp"
#include "convolab/program_cache.hpp"

namespace convolab {

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
  cl::Program buildProgram(const std::string& source, const std::string& options, const std::string& label);

  ProgramCache& programCache() { return m_cache; }

 private:
  DeviceInfo m_info;
  cl::Device m_device;
  cl::Context m_context;
  cl::CommandQueue m_queue;
  cl::CommandQueue m_transfer[2];
  ProgramCache m_cache;
};

/// Source of an embedded kernel file (kernels/<name>.cl); throws Error(Device) when unknown.
std::string_view kernelSource(std::string_view name);

}  // namespace convolab
