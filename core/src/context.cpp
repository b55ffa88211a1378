// Context: device, OpenCL context, profiling queue, and program builds through the binary cache.
#include "convolab/context.hpp"

#include <map>

#include "convolab/error.hpp"
#include "convolab/fault_injection.hpp"
#include "kernel_source.hpp"

namespace convolab::detail {
const std::map<std::string, std::string_view, std::less<>>& embeddedKernels();
}

namespace convolab {

std::string_view kernelSource(std::string_view name) {
  const auto& table = detail::embeddedKernels();
  auto it = table.find(name);
  if (it == table.end())
    throw Error(ErrorKind::Device, "no embedded kernel named '" + std::string(name) + "'");
  return it->second;
}

Context::Context(const std::string& deviceSpec) : Context(selectDevice(deviceSpec)) {}

Context::Context(const DeviceInfo& device) : m_info(device) {
  try {
    m_device = openDevice(device);
    m_context = cl::Context(m_device);
    m_queue = cl::CommandQueue(m_context, m_device, CL_QUEUE_PROFILING_ENABLE);
  } catch (const cl::Error& e) {
    throw ClError(e.what(), e.err(), "while opening " + device.describe());
  }
}

cl::CommandQueue& Context::transferQueue(int index) {
  cl::CommandQueue& q = m_transfer[index & 1];
  if (!q()) {
    try {
      q = cl::CommandQueue(m_context, m_device, CL_QUEUE_PROFILING_ENABLE);
    } catch (const cl::Error& e) {
      throw ClError("clCreateCommandQueue", e.err(), "transfer queue");
    }
  }
  return q;
}

cl::Program Context::buildKernelProgram(const std::string& kernelName, const std::string& options) {
  return buildProgram(composeKernelSource(kernelName), options, kernelName);
}

cl::Program Context::buildProgram(const std::string& source, const std::string& options,
                                  const std::string& label) {
  if (faultInjected("build", label))
    throw BuildError(label, "injected build failure (CONVOLAB_INJECT_FAULT=build:" + label + ")");
  const std::string fullOptions = options + " -cl-mad-enable";
  const std::string key = ProgramCache::key(m_info.name, m_info.driverVersion, fullOptions, source);
  if (auto binary = m_cache.load(key)) {
    try {
      cl::Program program(m_context, {m_device}, cl::Program::Binaries{*binary});
      program.build({m_device}, fullOptions.c_str());
      return program;
    } catch (const cl::Error&) {
      // A stale or corrupt binary is rebuilt from source, never fatal.
    }
  }
  cl::Program program(m_context, source);
  try {
    program.build({m_device}, fullOptions.c_str());
  } catch (const cl::BuildError& e) {
    std::string log;
    for (const auto& [dev, text] : e.getBuildLog()) log += text;
    throw BuildError(label, log.empty() ? e.what() : log);
  } catch (const cl::Error& e) {
    std::string log;
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(m_device);
    } catch (...) {
    }
    if (e.err() == CL_BUILD_PROGRAM_FAILURE) throw BuildError(label, log);
    throw ClError(e.what(), e.err(), "building '" + label + "'");
  }
  try {
    auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    if (!binaries.empty()) m_cache.store(key, binaries.front());
  } catch (const cl::Error&) {
  }
  return program;
}

}  // namespace convolab
