// SPDX-License-Identifier: MIT
// OpenCL platform/device enumeration and selection by spec ("gpu", "cpu", "P:D", name substring).
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace convolab {

struct DeviceInfo {
  int platformIndex = 0;
  int deviceIndex = 0;
  std::string platformName;
  std::string name;
  std::string vendor;
  std::string driverVersion;
  std::string openclVersion;
  bool isGpu = false;
  bool imageSupport = false;
  std::uint64_t globalMemBytes = 0;
  std::uint64_t maxAllocBytes = 0;
  std::uint64_t localMemBytes = 0;
  std::uint64_t constantBufferBytes = 0;
  std::size_t maxWorkGroupSize = 0;
  std::size_t image2dMaxWidth = 0;
  std::size_t image2dMaxHeight = 0;
  int computeUnits = 0;
  int clockMHz = 0;

  /// The spec that selects exactly this device: "P:D".
  std::string spec() const;
  /// One line for people: "NVIDIA H100 (NVIDIA CUDA, OpenCL 3.0 CUDA, driver 550.54) [gpu]".
  std::string describe() const;
  /// The driver keeps every build in a persistent kernel cache of its own (PoCL: ~/.cache/pocl).
  bool keepsOwnKernelCache() const;
};

/// Every device of every platform; empty when no OpenCL platform is installed.
std::vector<DeviceInfo> listDevices();

/// Picks a device. Spec: "" (then env CONVOLAB_DEVICE, then the first GPU, else the first device),
/// "gpu", "cpu", "P:D" indices, or a case-insensitive substring of the device or platform name.
/// Throws Error(Device) when nothing matches or no OpenCL platform exists, listing what exists.
DeviceInfo selectDevice(const std::string& spec = {});

/// The cl::Device a DeviceInfo refers to.
cl::Device openDevice(const DeviceInfo& info);

}  // namespace convolab
