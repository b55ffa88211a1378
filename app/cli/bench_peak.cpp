// SPDX-License-Identifier: MIT
// `bench`'s device section: the theoretical FP32 peak from the device name, and the FMA probe
// (kernels/fma_probe.cl).
#include "bench_peak.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <utility>

#include "bench_common.hpp"
#include "commands.hpp"
#include "convolab/kernel_args.hpp"

namespace convolab::cli::bench {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// FP32 lanes per compute unit where the device name tells (OpenCL does not report it).
std::optional<std::pair<int, std::string>> lanesPerComputeUnit(const DeviceInfo& d) {
  const std::string name = lower(d.name), vendor = lower(d.vendor), platform = lower(d.platformName);
  auto has = [&](const char* s) { return name.find(s) != std::string::npos; };
  if (vendor.find("nvidia") != std::string::npos) {
    if (has("h100") || has("h200") || has("h800") || has("gh200"))
      return {{128, "Hopper: 128 FP32 lanes per SM"}};
    if (has("a100") || has("a800") || has("a30")) return {{64, "GA100: 64 FP32 lanes per SM"}};
    if (has("v100") || has("p100")) return {{64, "GV100/GP100: 64 FP32 lanes per SM"}};
    if (has("t4") || has("rtx 20") || has("titan rtx")) return {{64, "Turing: 64 FP32 lanes per SM"}};
    if (has("rtx 30") || has("rtx 40") || has("rtx a") || has("a10") || has("a40") || has("l4") || has("l40"))
      return {{128, "Ampere GA10x/Ada: 128 FP32 lanes per SM"}};
    return std::nullopt;
  }
  if (!d.isGpu && platform.find("portable computing language") != std::string::npos) {
    if (has("avx512")) return {{32, "PoCL CPU: AVX-512 16 lanes x 2 FMA units per core"}};
    if (has("avx2") || has("haswell") || has("skylake") || has("zen"))
      return {{16, "PoCL CPU: AVX2 8 lanes x 2 FMA units per core"}};
  }
  return std::nullopt;
}

/// Achieved FP32 FMA throughput in GFLOP/s: enough work-items to fill the device, iterations grown until one
/// launch takes >= 20 ms, best of 3, the faster of the scalar and vector kernels of kernels/fma_probe.cl.
double fmaProbeGflops(Context& ctx) {
  const cl::Program program = ctx.buildProgram(std::string(kernelSource("fma_probe")), "", "fma_probe");
  const size_t global = static_cast<size_t>(std::max(ctx.device().computeUnits, 1)) * 2048;
  cl::Buffer out(ctx.context(), CL_MEM_WRITE_ONLY, global * sizeof(float));
  double best = 0;
  for (const auto& [name, lanes] : {std::pair<const char*, int>{"fma_scalar", 1}, {"fma_vector", 16}}) {
    cl::Kernel kernel(program, name);
    auto runMs = [&](int iters) {
      setArgs(kernel, out, 0.999f, 0.001f, iters);
      cl::Event ev;
      ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NullRange, nullptr,
                                       &ev);
      ev.wait();
      return static_cast<double>(ev.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                 ev.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
             1e-6;
    };
    int iters = 16;
    double ms = runMs(iters);
    while (ms < 20.0 && iters < (1 << 22)) {
      iters = static_cast<int>(
          std::min<double>(1 << 22, iters * std::clamp(25.0 / std::max(ms, 1e-3), 2.0, 64.0)));
      ms = runMs(iters);
    }
    for (int i = 0; i < 2; ++i) ms = std::min(ms, runMs(iters));
    const double flops = static_cast<double>(global) * iters * 8 * lanes * 2;
    best = std::max(best, flops / (ms * 1e6));
  }
  return best;
}

}  // namespace

DeviceReport deviceReport(Context& ctx, bool probe) {
  const DeviceInfo& d = ctx.device();
  DeviceReport r;
  r.spec = d.spec();
  r.name = d.name;
  r.platform = d.platformName;
  r.vendor = d.vendor;
  r.driver = d.driverVersion;
  r.openclVersion = d.openclVersion;
  r.isGpu = d.isGpu;
  r.computeUnits = d.computeUnits;
  r.clockMHz = d.clockMHz;
  r.globalMemBytes = d.globalMemBytes;
  r.maxAllocBytes = d.maxAllocBytes;
  if (auto lanes = lanesPerComputeUnit(d)) {
    r.theoreticalGflops = static_cast<double>(d.computeUnits) * d.clockMHz * 2.0 * lanes->first / 1000.0;
    r.theoreticalSource = std::to_string(d.computeUnits) + " CUs x " + std::to_string(d.clockMHz) +
                          " MHz x 2 x " + std::to_string(lanes->first) + " lanes (" + lanes->second + ")";
  }
  if (probe) {
    try {
      progress("measuring FP32 FMA throughput (probe kernel)");
      r.probeGflops = fmaProbeGflops(ctx);
    } catch (const std::exception& e) {
      printNote(std::string("FMA probe failed: ") + e.what());
    }
  }
  if (r.theoreticalGflops) {
    r.peakGflops = *r.theoreticalGflops;
    r.peakSource = "theoretical: " + r.theoreticalSource;
  } else if (r.probeGflops) {
    r.peakGflops = *r.probeGflops;
    r.peakSource = "measured: FMA probe kernel (lanes per compute unit unknown for this device)";
  } else {
    r.peakSource = "unknown";
  }
  return r;
}

}  // namespace convolab::cli::bench
