// SPDX-License-Identifier: MIT
// Device enumeration and selection by spec.
#include "convolab/device.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "convolab/config.hpp"
#include "convolab/error.hpp"
#include "convolab/log.hpp"

namespace convolab {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

bool writableFolder(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  return !ec && std::filesystem::is_directory(dir, ec) && ::access(dir.c_str(), W_OK | X_OK) == 0;
}

/// PoCL keeps its compiled kernels under $POCL_CACHE_DIR, else $XDG_CACHE_HOME/pocl, else
/// ~/.cache/pocl, and reports no device at all when it cannot create that folder (a read-only HOME or
/// cache). So before the first OpenCL call: when that folder cannot be written, point PoCL at a private
/// temporary one (removed at exit) and say so once, instead of "no OpenCL device is installed".
void ensureDriverCacheWritable() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (const char* set = std::getenv("POCL_CACHE_DIR"); set && *set) return;
    std::filesystem::path dir;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
      dir = std::filesystem::path(x) / "pocl";
    else if (const char* home = std::getenv("HOME"); home && *home)
      dir = std::filesystem::path(home) / ".cache" / "pocl";
    if (dir.empty() || writableFolder(dir)) return;
    std::string tmpl = (std::filesystem::temp_directory_path() / "convolab-pocl-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) return;
    static const std::string tmpDir = tmpl;
    ::setenv("POCL_CACHE_DIR", tmpDir.c_str(), 1);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(tmpDir, ec);
    });
    logMessage(LogLevel::Note, "the OpenCL driver's cache folder " + dir.string() +
                                   " cannot be written; using a temporary one for this run");
  });
}

std::vector<cl::Platform> platforms() {
  ensureDriverCacheWritable();
  std::vector<cl::Platform> list;
  cl_uint n = 0;
  // clGetPlatformIDs returns CL_PLATFORM_NOT_FOUND_KHR with no ICD installed: that is "no devices".
  if (clGetPlatformIDs(0, nullptr, &n) != CL_SUCCESS || n == 0) return list;
  try {
    cl::Platform::get(&list);
  } catch (const cl::Error&) {
    list.clear();
  }
  return list;
}

std::string available(const std::vector<DeviceInfo>& all) {
  if (all.empty()) return "no OpenCL device is installed (on Debian: apt-get install pocl-opencl-icd)";
  std::string s = "available devices:";
  for (const auto& d : all) s += "\n  " + d.spec() + "  " + d.describe();
  return s;
}

}  // namespace

std::string DeviceInfo::spec() const {
  return std::to_string(platformIndex) + ":" + std::to_string(deviceIndex);
}

bool DeviceInfo::keepsOwnKernelCache() const {
  return platformName.find("Portable Computing Language") != std::string::npos;
}

std::string DeviceInfo::describe() const {
  return name + " (" + platformName + ", " + openclVersion + ", driver " + driverVersion + ") [" +
         (isGpu ? "gpu" : "cpu") + "]";
}

std::vector<DeviceInfo> listDevices() {
  std::vector<DeviceInfo> out;
  const auto plats = platforms();
  for (size_t p = 0; p < plats.size(); ++p) {
    std::vector<cl::Device> devices;
    try {
      plats[p].getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;  // a platform with no devices
    }
    for (size_t d = 0; d < devices.size(); ++d) {
      const cl::Device& dev = devices[d];
      DeviceInfo i;
      i.platformIndex = static_cast<int>(p);
      i.deviceIndex = static_cast<int>(d);
      i.platformName = trim(plats[p].getInfo<CL_PLATFORM_NAME>());
      i.name = trim(dev.getInfo<CL_DEVICE_NAME>());
      i.vendor = trim(dev.getInfo<CL_DEVICE_VENDOR>());
      i.driverVersion = trim(dev.getInfo<CL_DRIVER_VERSION>());
      i.openclVersion = trim(dev.getInfo<CL_DEVICE_VERSION>());
      i.isGpu = (dev.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU) != 0;
      i.imageSupport = dev.getInfo<CL_DEVICE_IMAGE_SUPPORT>() != 0;
      i.globalMemBytes = dev.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
      i.maxAllocBytes = dev.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
      i.localMemBytes = dev.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
      i.constantBufferBytes = dev.getInfo<CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE>();
      i.maxWorkGroupSize = dev.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
      if (i.imageSupport) {
        i.image2dMaxWidth = dev.getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>();
        i.image2dMaxHeight = dev.getInfo<CL_DEVICE_IMAGE2D_MAX_HEIGHT>();
      }
      i.computeUnits = static_cast<int>(dev.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>());
      i.clockMHz = static_cast<int>(dev.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>());
      out.push_back(std::move(i));
    }
  }
  return out;
}

DeviceInfo selectDevice(const std::string& requested) {
  std::string spec = requested;
  if (spec.empty()) spec = coreConfig().device;
  const auto all = listDevices();
  if (all.empty()) throw Error(ErrorKind::Device, "no OpenCL device found: " + available(all));
  const std::string s = lower(spec);
  if (s.empty() || s == "default") {
    for (const auto& d : all)
      if (d.isGpu) return d;
    return all.front();
  }
  if (s == "gpu" || s == "cpu") {
    for (const auto& d : all)
      if (d.isGpu == (s == "gpu")) return d;
    throw Error(ErrorKind::Device, "no " + s + " OpenCL device; " + available(all));
  }
  if (auto colon = s.find(':');
      colon != std::string::npos && colon > 0 && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == ':';
      })) {
    const int p = std::atoi(s.substr(0, colon).c_str()), d = std::atoi(s.substr(colon + 1).c_str());
    for (const auto& dev : all)
      if (dev.platformIndex == p && dev.deviceIndex == d) return dev;
    throw Error(ErrorKind::Device, "no OpenCL device " + spec + "; " + available(all));
  }
  for (const auto& d : all)
    if (lower(d.name).find(s) != std::string::npos || lower(d.platformName).find(s) != std::string::npos)
      return d;
  throw Error(ErrorKind::Device, "no OpenCL device matches '" + spec + "'; " + available(all));
}

cl::Device openDevice(const DeviceInfo& info) {
  const auto plats = platforms();
  if (info.platformIndex >= static_cast<int>(plats.size()))
    throw Error(ErrorKind::Device, "OpenCL platform " + std::to_string(info.platformIndex) + " is gone");
  std::vector<cl::Device> devices;
  plats[static_cast<size_t>(info.platformIndex)].getDevices(CL_DEVICE_TYPE_ALL, &devices);
  if (info.deviceIndex >= static_cast<int>(devices.size()))
    throw Error(ErrorKind::Device, "OpenCL device " + info.spec() + " is gone");
  return devices[static_cast<size_t>(info.deviceIndex)];
}

}  // namespace convolab
