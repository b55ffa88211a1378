// SPDX-License-Identifier: MIT
// Context: device, OpenCL context, profiling queue, and program builds through the binary cache.
#include "convolab/context.hpp"

#include <chrono>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "convolab/config.hpp"
#include "convolab/error.hpp"
#include "convolab/fault_injection.hpp"
#include "kernel_source.hpp"

namespace convolab::detail {
const std::map<std::string, std::string_view, std::less<>>& embeddedKernels();
}

namespace convolab {

/// Built programs by exact source and options, most recently used first, bounded.
struct Context::ProgramPool {
  using Entry = std::pair<std::string, cl::Program>;
  std::mutex mutex;
  std::list<Entry> entries;
  std::unordered_map<std::string, std::list<Entry>::iterator> index;
  std::size_t capacity = Context::kProgramPoolCapacity;

  std::optional<cl::Program> find(const std::string& key) {
    std::lock_guard lock(mutex);
    const auto it = index.find(key);
    if (it == index.end()) return std::nullopt;
    entries.splice(entries.begin(), entries, it->second);
    return it->second->second;
  }
  void add(const std::string& key, const cl::Program& program) {
    std::lock_guard lock(mutex);
    if (index.count(key)) return;
    entries.emplace_front(key, program);
    index.emplace(key, entries.begin());
    trim();
  }
  void trim() {
    while (entries.size() > capacity) {
      index.erase(entries.back().first);
      entries.pop_back();
    }
  }
};

namespace {
/// A driver with a kernel cache of its own (PoCL) gains nothing from our binaries, and reading one back makes
/// PoCL compile the program a second time.
bool usesProgramBinaries(const DeviceInfo& device) {
  switch (coreConfig().programBinaries) {
    case CoreConfig::ProgramBinaries::Always:
      return true;
    case CoreConfig::ProgramBinaries::Never:
      return false;
    case CoreConfig::ProgramBinaries::Auto:
      break;
  }
  return !device.keepsOwnKernelCache();
}
}  // namespace

std::string_view kernelSource(std::string_view name) {
  const auto& table = detail::embeddedKernels();
  auto it = table.find(name);
  if (it == table.end())
    throw Error(ErrorKind::Device, "no embedded kernel named '" + std::string(name) + "'");
  return it->second;
}

Context::Context(const std::string& deviceSpec) : Context(selectDevice(deviceSpec)) {}

Context::Context(const DeviceInfo& device) : m_info(device), m_pool(std::make_shared<ProgramPool>()) {
  try {
    m_device = openDevice(device);
    m_context = cl::Context(m_device);
    m_queue = cl::CommandQueue(m_context, m_device, CL_QUEUE_PROFILING_ENABLE);
  } catch (const cl::Error& e) {
    throw ClError(e.what(), e.err(), "while opening " + device.describe());
  }
}

Context::Context(const Context& other, SiblingTag)
    : m_info(other.m_info),
      m_device(other.m_device),
      m_context(other.m_context),
      m_cache(other.m_cache),
      m_pool(other.m_pool) {
  try {
    m_queue = cl::CommandQueue(m_context, m_device, CL_QUEUE_PROFILING_ENABLE);
  } catch (const cl::Error& e) {
    throw ClError("clCreateCommandQueue", e.err(), "sibling queue on " + m_info.describe());
  }
}

std::shared_ptr<Context> Context::sibling() const {
  return std::shared_ptr<Context>(new Context(*this, SiblingTag{}));
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

void Context::clearActivityLog() {
  std::lock_guard lock(m_activityMutex);
  m_builds.clear();
  m_launches.clear();
}

std::vector<BuildInfo> Context::buildLog() const {
  std::lock_guard lock(m_activityMutex);
  return m_builds;
}

std::vector<LaunchInfo> Context::launchLog() const {
  std::lock_guard lock(m_activityMutex);
  return m_launches;
}

void Context::recordLaunch(const std::string& kernel, const cl::NDRange& global, const cl::NDRange& local) {
  LaunchInfo info{kernel, {}, {}};
  for (cl::size_type i = 0; i < global.dimensions(); ++i) info.global.push_back(global[i]);
  for (cl::size_type i = 0; i < local.dimensions(); ++i) info.local.push_back(local[i]);
  std::lock_guard lock(m_activityMutex);
  if (m_launches.size() >= kActivityLogSize) m_launches.erase(m_launches.begin());
  m_launches.push_back(std::move(info));
}

cl::Program Context::buildProgram(const std::string& source, const std::string& options,
                                  const std::string& label) {
  const auto started = std::chrono::steady_clock::now();
  auto record = [&](bool fromCache) {
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    std::lock_guard lock(m_activityMutex);
    if (m_builds.size() >= kActivityLogSize) m_builds.erase(m_builds.begin());
    m_builds.push_back({label, source, options + " -cl-mad-enable", ms, fromCache});
  };
  if (faultInjected("build", label))
    throw BuildError(label, "injected build failure (CONVOLAB_INJECT_FAULT=build:" + label + ")");
  const std::string fullOptions = options + " -cl-mad-enable";
  const std::string poolKey = fullOptions + '\n' + source;
  if (auto held = m_pool->find(poolKey)) {
    record(true);
    return *held;
  }
  const ProgramKey key{m_info.name, m_info.driverVersion, fullOptions, source};
  const bool binaries = usesProgramBinaries(m_info);
  if (auto cached = binaries ? m_cache.load(key) : std::nullopt) {
    // The bytes were verified (full key, size, checksum) before they reach the driver. A binary the
    // driver still rejects, or whose kernels differ from the ones stored with it, is a miss: evict it
    // and rebuild from source, quietly.
    try {
      cl::Program program(m_context, {m_device}, cl::Program::Binaries{cached->binary});
      ++m_programsCreated;
      program.build({m_device}, fullOptions.c_str());
      std::vector<cl::Kernel> kernels;
      program.createKernels(&kernels);  // every kernel of the program can be created from it
      if (program.getInfo<CL_PROGRAM_KERNEL_NAMES>() == cached->kernelNames) {
        m_pool->add(poolKey, program);
        record(true);
        return program;
      }
    } catch (const cl::Error&) {
    }
    m_cache.evict(key);
  }
  cl::Program program(m_context, source);
  ++m_programsCreated;
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
  if (binaries) {
    try {
      auto built = program.getInfo<CL_PROGRAM_BINARIES>();
      if (!built.empty())
        m_cache.store(key, {std::move(built.front()), program.getInfo<CL_PROGRAM_KERNEL_NAMES>()});
    } catch (const cl::Error&) {
    }
  }
  m_pool->add(poolKey, program);
  record(false);
  return program;
}

std::size_t Context::programsHeld() const {
  std::lock_guard lock(m_pool->mutex);
  return m_pool->entries.size();
}

std::size_t Context::programPoolCapacity() const {
  std::lock_guard lock(m_pool->mutex);
  return m_pool->capacity;
}

void Context::setProgramPoolCapacity(std::size_t capacity) {
  std::lock_guard lock(m_pool->mutex);
  m_pool->capacity = capacity;
  m_pool->trim();
}

}  // namespace convolab
