// SPDX-License-Identifier: MIT
// A custom step's trial: the parent starts convolab-measure --trial and judges what it reports (or that it
// stopped reporting); the child builds, runs on a guarded test frame and reports.
#include "convolab/custom_trial.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "child_process.hpp"
#include "convolab/config.hpp"
#include "convolab/error.hpp"
#include "convolab/filter_chain_io.hpp"
#include "convolab/image.hpp"
#include "convolab/percentile.hpp"
#include "custom_step.hpp"
#include "strategies/auto_measure_process.hpp"
#include "strategy_support.hpp"

namespace convolab {
namespace {

using Verdict = TrialOutcome::Verdict;
using Clock = std::chrono::steady_clock;

std::string ms(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", v);
  return buf;
}

/// What the parent reads from the child.
struct Report {
  bool built = false, buildFailed = false, ok = false;
  double ms = -1;
  std::string outside, error, log;
  std::vector<KernelDiagnostic> diagnostics;
};

void readReportLine(const std::string& text, Report& r) {
  std::istringstream line(text);
  std::string word;
  line >> word;
  if (word == "diag") {
    KernelDiagnostic d;
    std::string kind;
    line >> d.line >> d.column >> kind;
    d.isError = kind != "warning";
    std::getline(line >> std::ws, d.message);
    r.diagnostics.push_back(std::move(d));
  } else if (word == "built") {
    r.built = true;
  } else if (word == "buildfailed") {
    r.buildFailed = true;
  } else if (word == "ran") {
    line >> r.ms;
  } else if (word == "outside") {
    std::getline(line >> std::ws, r.outside);
  } else if (word == "ok") {
    r.ok = true;
  } else if (word == "log") {
    std::string rest;
    std::getline(line, rest);
    r.log += (rest.empty() ? rest : rest.substr(1)) + "\n";
  } else if (word == "error") {
    std::getline(line >> std::ws, r.error);
  }
}

TrialOutcome judge(const Report& r, int status, const TrialLimits& limits, const std::string& size) {
  TrialOutcome out;
  out.diagnostics = r.diagnostics;
  out.log = r.log;
  out.ms = r.ms;
  if (r.buildFailed) {
    out.verdict = Verdict::BuildFailed;
    out.message = CustomKernelError(r.diagnostics, {}).what();
  } else if (WIFSIGNALED(status)) {
    out.verdict = Verdict::Crashed;
    const int sig = WTERMSIG(status);
    out.message = std::string("the kernel crashed its trial on a ") + size + " frame (signal " +
                  std::to_string(sig) + ", " + (sigabbrev_np(sig) ? sigabbrev_np(sig) : "?") +
                  "): it probably reads or writes far outside the image";
  } else if (!r.outside.empty()) {
    out.verdict = Verdict::WroteOutside;
    out.message = "the kernel wrote outside its output on a " + size + " frame (" + r.outside + ")";
  } else if (r.ms > limits.budgetMs) {
    out.verdict = Verdict::TooSlow;
    out.message = "the kernel takes " + ms(r.ms) + " per " + size + " frame, more than the budget of " +
                  ms(limits.budgetMs);
  } else if (r.ok) {
    out.verdict = Verdict::Passed;
    out.message = "tried on a " + size + " frame: " + ms(r.ms) + " per frame";
  } else {
    out.verdict = Verdict::Unavailable;
    out.message = "the trial did not report" + (r.error.empty() ? std::string() : ": " + r.error);
  }
  return out;
}

}  // namespace

TrialOutcome trialCustomStep(const Context& ctx, const ChainStep& step, int width, int height,
                             const TrialLimits& limits) {
  TrialOutcome out;
  const std::string size = std::to_string(width) + "×" + std::to_string(height);
  const std::string program = auto_detail::measureProgramPath();
  if (!step.isCustom() || program.empty()) {
    out.message = step.isCustom() ? "convolab-measure was not found: the kernel was not tried"
                                  : "not a custom OpenCL step";
    return out;
  }
  ChainStep on = step;
  on.enabled = true;
  const TempTextFile file(toFilterChainJson(FilterChain::make({on})), "convolab-trial");
  auto child = ChildProcess::spawn({program, "--trial", file.path, "--device", ctx.device().spec(), "--width",
                                    std::to_string(width), "--height", std::to_string(height), "--budget-ms",
                                    std::to_string(limits.budgetMs)});
  if (file.path.empty() || !child) {
    out.message = "the trial could not start: the kernel was not tried";
    return out;
  }
  Report r;
  auto deadline = Clock::now() + std::chrono::milliseconds(limits.buildMs);
  for (;;) {
    std::string line;
    const auto read = child->readLine(line, deadline);
    if (read == ChildProcess::Read::Line) {
      const bool wasBuilt = r.built;
      readReportLine(line, r);
      if (r.built && !wasBuilt) deadline = Clock::now() + std::chrono::milliseconds(limits.runMs);
      continue;
    }
    if (read == ChildProcess::Read::Timeout) {
      child->kill();
      out.verdict = Verdict::Hung;
      out.diagnostics = r.diagnostics;
      out.message = r.built ? "the kernel did not finish a " + size + " frame within " + ms(limits.runMs) +
                                  " (an endless loop?): its trial was stopped"
                            : "the build took longer than " + ms(limits.buildMs) + ": the trial was stopped";
      return out;
    }
    break;
  }
  return judge(r, child->wait(), limits, size);
}

namespace {

struct TrialArgs {
  std::string file, device;
  int width = 0, height = 0;
  double budgetMs = 250;
};

TrialArgs parseTrialArgs(int argc, char** argv) {
  TrialArgs a;
  for (int i = 1; i < argc; ++i) {
    const std::string opt = argv[i];
    if (i + 1 >= argc) throw Error(ErrorKind::Usage, opt + " needs a value");
    const std::string v = argv[++i];
    if (opt == "--trial")
      a.file = v;
    else if (opt == "--device")
      a.device = v;
    else if (opt == "--width")
      a.width = std::atoi(v.c_str());
    else if (opt == "--height")
      a.height = std::atoi(v.c_str());
    else if (opt == "--budget-ms")
      a.budgetMs = std::atof(v.c_str());
    else
      throw Error(ErrorKind::Usage, "unknown option " + opt);
  }
  if (a.width <= 0 || a.height <= 0 || a.file.empty())
    throw Error(ErrorKind::Usage, "usage: convolab-measure --trial FILE --width W --height H [...]");
  return a;
}

/// A device buffer with kGuard bytes of a known pattern on both sides of `bytes`; `inner` is the middle.
struct GuardedBuffer {
  static constexpr size_t kGuard = 64 * 1024;  // a multiple of every device's base address alignment
  static constexpr unsigned char kPattern = 0xA5;
  cl::Buffer whole, inner;
  std::vector<unsigned char> expected;

  GuardedBuffer(Context& ctx, const std::vector<unsigned char>& payload) {
    expected.assign(payload.size() + 2 * kGuard, kPattern);
    std::copy(payload.begin(), payload.end(), expected.begin() + kGuard);
    whole =
        cl::Buffer(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, expected.size(), expected.data());
    cl_buffer_region region{kGuard, payload.size()};
    inner = whole.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
  }
  /// Whether any byte differs from `expected` in [from, to) of the whole buffer.
  static bool changed(const std::vector<unsigned char>& now, const std::vector<unsigned char>& expected,
                      size_t from, size_t to) {
    return !std::equal(now.begin() + static_cast<long>(from), now.begin() + static_cast<long>(to),
                       expected.begin() + static_cast<long>(from));
  }
  std::vector<unsigned char> read(Context& ctx) {
    std::vector<unsigned char> now(expected.size());
    ctx.queue().enqueueReadBuffer(whole, CL_TRUE, 0, now.size(), now.data());
    return now;
  }
};

std::vector<unsigned char> testFrame(int width, int height) {
  std::vector<unsigned char> px(static_cast<size_t>(width) * static_cast<size_t>(height) *
                                static_cast<size_t>(kBytesPerPixel));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < 3; ++c)
        px[(static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) * 3 +
           static_cast<size_t>(c)] = static_cast<unsigned char>(x * 7 + y * 13 + c * 50 + (x * y) % 31);
  return px;
}

void printDiagnostics(const std::vector<KernelDiagnostic>& diagnostics) {
  for (const KernelDiagnostic& d : diagnostics) {
    std::string text = d.message;
    std::replace(text.begin(), text.end(), '\n', ' ');
    std::printf("diag %d %d %s %s\n", d.line, d.column, d.isError ? "error" : "warning", text.c_str());
  }
}

/// The compiler's own text, a `log` line each, for a person who wants all of it.
void printLog(const std::string& log) {
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) std::printf("log %s\n", line.c_str());
}

/// Runs the step on guarded buffers; prints `ran`, then `outside` or `ok`.
void runGuarded(Context& ctx, CustomStep& custom, const TrialArgs& a) {
  GuardedBuffer in(ctx, testFrame(a.width, a.height));
  GuardedBuffer out(ctx, std::vector<unsigned char>(in.expected.size() - 2 * GuardedBuffer::kGuard, 0));
  const FrameBuffers frame{in.inner, out.inner, a.width, a.height};
  std::vector<double> times;
  for (int run = 0; run < 4; ++run) {
    const auto events = custom.enqueue(ctx, frame, {}, 0.5 * run);
    events.back().event.wait();
    times.push_back(eventMs(events.back().event));
    if (times.back() > a.budgetMs) break;  // one slow frame is enough to know
  }
  std::printf("ran %.6f\n", times.size() > 1 ? median({times.begin() + 1, times.end()}) : times[0]);
  const std::vector<unsigned char> inNow = in.read(ctx), outNow = out.read(ctx);
  const size_t g = GuardedBuffer::kGuard, end = outNow.size();
  if (GuardedBuffer::changed(inNow, in.expected, 0, inNow.size()))
    std::printf("outside the input image or the bytes around it\n");
  else if (GuardedBuffer::changed(outNow, out.expected, 0, g) ||
           GuardedBuffer::changed(outNow, out.expected, end - g, end))
    std::printf("outside the 64 KiB before or after the output image\n");
  else
    std::printf("ok\n");
}

}  // namespace

int runTrialChild(int argc, char** argv) {
  try {
    const TrialArgs a = parseTrialArgs(argc, argv);
    ::setpriority(PRIO_PROCESS, 0, 10);  // the live frames of the parent come first
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    setCoreConfig(CoreConfig::fromEnvironment());
    const FilterChain chain = loadFilterChainFile(a.file);
    const ChainStep& step = chain.steps().at(0);
    Context ctx(a.device);
    CustomStep custom;
    try {
      custom.prepare(ctx, step);
    } catch (const CustomKernelError& e) {
      printLog(e.log());
      printDiagnostics(e.diagnostics());
      std::printf("buildfailed\n");
      return 0;
    }
    printDiagnostics(custom.warnings());
    std::printf("built\n");
    std::fflush(stdout);
    runGuarded(ctx, custom, a);
    std::fflush(stdout);
    return 0;
  } catch (const Error& e) {
    std::printf("error %s\n", e.what());
    std::fflush(stdout);
    return e.kind() == ErrorKind::Usage ? 2 : e.kind() == ErrorKind::BadInput ? 3 : 4;
  } catch (const std::exception& e) {
    std::printf("error %s\n", e.what());
    std::fflush(stdout);
    return 4;
  }
}

}  // namespace convolab
