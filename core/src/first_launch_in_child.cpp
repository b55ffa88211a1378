// SPDX-License-Identifier: MIT
// A kernel's first launch in convolab-measure: see first_launch_in_child.hpp.
#include "first_launch_in_child.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "child_process.hpp"
#include "convolab/beside_live_frames.hpp"
#include "convolab/config.hpp"
#include "convolab/image.hpp"
#include "strategies/auto_measure_process.hpp"
#include "strategy_support.hpp"

namespace convolab {
namespace {

std::atomic<int> g_firstLaunches{0};
thread_local int t_besideLiveFrames = 0;

}  // namespace

BesideLiveFrames::BesideLiveFrames() {
  ++t_besideLiveFrames;
}

BesideLiveFrames::~BesideLiveFrames() {
  --t_besideLiveFrames;
}

bool BesideLiveFrames::active() {
  return t_besideLiveFrames > 0;
}

bool firstLaunchesGoToChild(const Context& ctx) {
  return ctx.device().keepsOwnKernelCache();
}

int childFirstLaunchesForTesting() {
  return g_firstLaunches.load();
}

bool firstLaunchInChildProcess(const Context& ctx, const cl::Kernel& kernel, const cl::NDRange& global,
                               const cl::NDRange& local, int width, int height) {
  const std::string program = auto_detail::measureProgramPath();
  if (program.empty() || width <= 0 || height <= 0 || global.dimensions() != 2 || local.dimensions() != 2)
    return false;
  std::string source, options, name;
  try {
    const cl::Program built = kernel.getInfo<CL_KERNEL_PROGRAM>();
    source = built.getInfo<CL_PROGRAM_SOURCE>();
    options = built.getBuildInfo<CL_PROGRAM_BUILD_OPTIONS>(ctx.clDevice());
    name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
    if (kernel.getInfo<CL_KERNEL_NUM_ARGS>() != 6) return false;  // not a literal kernel's arguments
  } catch (const cl::Error&) {
    return false;
  }
  while (!name.empty() && name.back() == '\0') name.pop_back();
  if (source.empty()) return false;
  const TempTextFile file(source, "convolab-first-launch");
  if (file.path.empty()) return false;
  auto child = ChildProcess::spawn({program, "--first-launch", file.path, "--options", options, "--kernel",
                                    name, "--device", ctx.device().spec(), "--size", std::to_string(width),
                                    std::to_string(height), "--global", std::to_string(global[0]),
                                    std::to_string(global[1]), "--local", std::to_string(local[0]),
                                    std::to_string(local[1])});
  if (!child) return false;
  std::string line;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (child->readLine(line, deadline) == ChildProcess::Read::Line) {
  }
  child->kill();  // a no-op when it ended; ends one that overstayed the deadline
  const int status = child->wait();
  const bool ran = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (ran) ++g_firstLaunches;
  return ran;
}

int runFirstLaunchChild(int argc, char** argv) {
  std::string sourceFile, options, name, device;
  size_t size[2] = {0, 0}, global[2] = {0, 0}, local[2] = {0, 0};
  for (int i = 1; i < argc; ++i) {
    const std::string opt = argv[i];
    auto pair = [&](size_t* out) {
      for (int k = 0; k < 2 && i + 1 < argc; ++k) out[k] = std::strtoull(argv[++i], nullptr, 10);
    };
    if (opt == "--size")
      pair(size);
    else if (opt == "--global")
      pair(global);
    else if (opt == "--local")
      pair(local);
    else if (i + 1 < argc && opt == "--first-launch")
      sourceFile = argv[++i];
    else if (i + 1 < argc && opt == "--options")
      options = argv[++i];
    else if (i + 1 < argc && opt == "--kernel")
      name = argv[++i];
    else if (i + 1 < argc && opt == "--device")
      device = argv[++i];
  }
  if (sourceFile.empty() || name.empty() || !size[0] || !size[1] || !global[0] || !local[0]) {
    std::fprintf(stderr,
                 "usage: convolab-measure --first-launch SOURCE_FILE --options OPTS --kernel NAME "
                 "--device P:D --size W H --global X Y --local X Y\n");
    return 2;
  }
  ::setpriority(PRIO_PROCESS, 0, 10);  // the live frames of the parent come first
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  try {
    setCoreConfig(CoreConfig::fromEnvironment());
    std::ifstream in(sourceFile);
    std::stringstream text;
    text << in.rdbuf();
    Context ctx(device);
    // The options as the driver reports them already hold what Context::buildProgram appends.
    cl::Program program(ctx.context(), text.str());
    program.build({ctx.clDevice()}, options.c_str());
    cl::Kernel kernel(program, name.c_str());
    const size_t bytes = size[0] * size[1] * static_cast<size_t>(kBytesPerPixel);
    cl::Buffer input(ctx.context(), CL_MEM_READ_WRITE, bytes),
        output(ctx.context(), CL_MEM_READ_WRITE, bytes);
    setArgs(kernel, input, output, static_cast<int>(size[0]), static_cast<int>(size[1]), cl_float4{},
            cl_float4{});
    ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global[0], global[1]),
                                     cl::NDRange(local[0], local[1]));
    ctx.queue().finish();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "convolab-measure --first-launch: %s\n", e.what());
    return 4;
  }
}

}  // namespace convolab
