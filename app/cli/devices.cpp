// SPDX-License-Identifier: MIT
// `devices`: every OpenCL platform/device with the --device spec that selects it.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "convolab/device.hpp"
#include "convolab/error.hpp"

namespace convolab::cli {
namespace {

std::string gib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

int runDevices() {
  const auto devices = listDevices();
  if (devices.empty())
    throw Error(ErrorKind::Device,
                "no OpenCL device found: no OpenCL platform is installed, or none has a device "
                "(on Debian, apt-get install pocl-opencl-icd gives a CPU device)");
  std::string defaultSpec;
  try {
    defaultSpec = selectDevice().spec();  // honours CONVOLAB_DEVICE
  } catch (const Error&) {
  }
  std::cout << "SPEC  DEVICE\n";
  for (const auto& d : devices) {
    std::cout << d.spec() << (d.spec().size() < 4 ? std::string(4 - d.spec().size(), ' ') : "") << "  "
              << d.describe() << (d.spec() == defaultSpec ? "  (default)" : "") << "\n"
              << "      " << d.computeUnits << " compute units @ " << d.clockMHz << " MHz, "
              << gib(d.globalMemBytes) << " global memory, " << gib(d.maxAllocBytes) << " max allocation, "
              << d.localMemBytes / 1024 << " KiB local memory, images " << (d.imageSupport ? "yes" : "no")
              << "\n";
  }
  std::cout << "Select one with --device SPEC (or gpu, cpu, a name substring; env CONVOLAB_DEVICE).\n";
  return kExitOk;
}

}  // namespace

void addDevicesCommand(CLI::App& app, Action& action) {
  CLI::App* cmd = app.add_subcommand("devices", "List the OpenCL devices and the --device spec of each.");
  cmd->callback([&action] { action = [] { return runDevices(); }; });
}

}  // namespace convolab::cli
