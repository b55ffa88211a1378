// SPDX-License-Identifier: MIT
// auto's measurement in a child process: see auto_measure_process.hpp.
#include "auto_measure_process.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "../child_process.hpp"
#include "convolab/config.hpp"
#include "convolab/error.hpp"
#include "convolab/fault_injection.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/log.hpp"
#include "convolab/progress.hpp"
#include "convolab/registry.hpp"

namespace convolab::auto_detail {
namespace {

/// Reads the child's report lines until it closes its output; kills it and throws Cancelled when the calling
/// thread's work is superseded.
std::optional<MeasureOutcome> readReport(ChildProcess& child,
                                         const std::function<void(const Choice&)>& onBetter) {
  MeasureOutcome out;
  bool sawProvisional = false;
  const auto never = Clock::now() + std::chrono::hours(24 * 365);
  for (std::string text;
       child.readLine(text, never, [] { throwIfCancelled(); }) == ChildProcess::Read::Line;) {
    std::istringstream line(text);
    std::string word;
    line >> word;
    if (word == "progress") {
      int done = 0, total = 0;
      if (line >> done >> total) reportProgress("measuring strategies", done, total);
    } else if (word == "provisional") {
      sawProvisional = static_cast<bool>(line >> out.provisionalMs);
    } else if (word == "result" || word == "better") {
      Choice c;
      if (line >> c.strategy >> c.variant >> c.ms) {
        if (c.variant == "-") c.variant.clear();
        if (word == "better") {
          if (onBetter) onBetter(c);
        } else {
          out.results.push_back(std::move(c));
        }
      }
    }
  }
  const int status = child.wait();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !sawProvisional) return std::nullopt;
  return out;
}

}  // namespace

std::string measureProgramPath() {
  const std::string configured = coreConfig().measureProgram;
  if (configured == "off") return {};
  std::filesystem::path program = configured;
  if (program.empty()) {
    const std::filesystem::path folder = ownProgramFolder();
    if (folder.empty()) return {};
    program = folder / "convolab-measure";
  }
  return ::access(program.c_str(), X_OK) == 0 ? program.string() : std::string();
}

std::optional<MeasureOutcome> measureInChildProcess(const std::vector<StrategyEntry>& candidates,
                                                    const Context& ctx, const FilterSet& filter, int width,
                                                    int height, int budgetMs,
                                                    const std::function<void(const Choice&)>& onBetter) {
  const std::string program = measureProgramPath();
  if (program.empty()) return std::nullopt;
  std::string names;
  for (const auto& c : candidates) {
    // The child makes its candidates from the registry: an injected one (a test's) is measured here.
    if (!findStrategy(c.name) || c.name == kAutoStrategy) return std::nullopt;
    names += (names.empty() ? "" : ",") + std::string(c.name);
  }
  const TempTextFile filterFile(toFilterJson(filter), "convolab-measure");
  if (filterFile.path.empty()) return std::nullopt;
  const CoreConfig config = coreConfig();
  std::vector<std::string> args{program,
                                "--device",
                                ctx.device().spec(),
                                "--width",
                                std::to_string(width),
                                "--height",
                                std::to_string(height),
                                "--runs",
                                std::to_string(config.autoRuns),
                                "--budget-ms",
                                std::to_string(budgetMs),
                                "--candidates",
                                names,
                                "--filter",
                                filterFile.path,
                                "--nice",
                                "10"};
  if (config.autoVerbose) args.emplace_back("--verbose");
  auto child = ChildProcess::spawn(args);
  if (!child) {
    logMessage(LogLevel::Debug, "auto: cannot start " + program + ": measuring in this process");
    return std::nullopt;
  }
  auto out = readReport(*child, onBetter);
  if (!out) logMessage(LogLevel::Debug, "auto: " + program + " did not report: measuring in this process");
  return out;
}

bool prepareInChildProcess(const Context& ctx, const FilterSet& filter, const Choice& choice, int width,
                           int height) {
  const std::string program = measureProgramPath();
  if (program.empty() || !findStrategy(choice.strategy)) return false;
  const TempTextFile filterFile(toFilterJson(filter), "convolab-measure");
  if (filterFile.path.empty()) return false;
  auto child = ChildProcess::spawn({program, "--device", ctx.device().spec(), "--width",
                                    std::to_string(width), "--height", std::to_string(height), "--filter",
                                    filterFile.path, "--nice", "10", "--prepare", choice.strategy,
                                    "--variant", choice.variant.empty() ? "-" : choice.variant});
  if (!child) return false;
  const auto deadline = Clock::now() + std::chrono::seconds(60);
  std::string text;
  ChildProcess::Read read;
  while ((read = child->readLine(text, deadline, [] { throwIfCancelled(); })) == ChildProcess::Read::Line) {
  }
  if (read == ChildProcess::Read::Timeout) return false;  // the destructor kills it
  const int status = child->wait();
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void injectedMeasurementStall() {
  if (!faultInjected("measure", "hold-driver")) return;
  std::lock_guard hold(injectedDriverLock());
  reportProgress("measuring strategies", 0, 1);  // the test waits for this: the stall has begun
  const auto until = Clock::now() + std::chrono::seconds(10);
  while (Clock::now() < until) {
    throwIfCancelled();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

namespace {

/// The child's arguments.
struct ChildArgs {
  std::string device, filterFile;
  std::string prepare,
      variant;  ///< --prepare: build and launch this strategy (variant "-": the default) once
  int width = 0, height = 0, runs = 5, budgetMs = 30000, nice = 10;
  std::set<std::string> candidates;
  bool verbose = false;
};

ChildArgs parseChildArgs(int argc, char** argv) {
  ChildArgs a;
  for (int i = 1; i < argc; ++i) {
    const std::string opt = argv[i];
    if (opt == "--verbose") {
      a.verbose = true;
      continue;
    }
    if (i + 1 >= argc) throw Error(ErrorKind::Usage, opt + " needs a value");
    const std::string v = argv[++i];
    if (opt == "--device")
      a.device = v;
    else if (opt == "--filter")
      a.filterFile = v;
    else if (opt == "--width")
      a.width = std::atoi(v.c_str());
    else if (opt == "--height")
      a.height = std::atoi(v.c_str());
    else if (opt == "--runs")
      a.runs = std::max(1, std::atoi(v.c_str()));
    else if (opt == "--budget-ms")
      a.budgetMs = std::max(1, std::atoi(v.c_str()));
    else if (opt == "--nice")
      a.nice = std::atoi(v.c_str());
    else if (opt == "--prepare")
      a.prepare = v;
    else if (opt == "--variant")
      a.variant = v == "-" ? "" : v;
    else if (opt == "--candidates") {
      std::istringstream list(v);
      for (std::string n; std::getline(list, n, ',');) a.candidates.insert(n);
    } else {
      throw Error(ErrorKind::Usage, "unknown option " + opt);
    }
  }
  if (a.width <= 0 || a.height <= 0 || a.filterFile.empty())
    throw Error(ErrorKind::Usage, "usage: convolab-measure --width W --height H --filter FILE [...]");
  return a;
}

}  // namespace

int runMeasureChild(int argc, char** argv) {
  try {
    const ChildArgs a = parseChildArgs(argc, argv);
    ::setpriority(PRIO_PROCESS, 0, a.nice);  // the live frames of the parent come first
    // Ends with the thread that waits for it (a parent that crashed or was killed leaves no measurement).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    CoreConfig config = CoreConfig::fromEnvironment();
    config.autoRuns = a.runs;
    config.autoVerbose = config.autoVerbose || a.verbose;
    config.verbose = config.verbose || a.verbose;
    setCoreConfig(config);
    std::vector<StrategyEntry> candidates;
    for (const auto& e : strategyCandidates())
      if (a.candidates.empty() || a.candidates.count(std::string(e.name))) candidates.push_back(e);
    const FilterSet filter = loadFilterFile(a.filterFile);
    Context ctx(a.device);
    if (!a.prepare.empty()) {  // the parent's swap to a winner: its build and first launch, here first
      for (const auto& e : strategyCandidates())
        if (e.name == a.prepare) {
          auto s = e.create();
          s->setTuningVariant(a.variant);
          prepareAndLaunchOnce(*s, ctx, filter, a.width, a.height);
          return 0;
        }
      throw Error(ErrorKind::Usage, "no strategy " + a.prepare);
    }
    setThreadProgressCallback([](const std::string&, int done, int total) {
      std::printf("progress %d %d\n", done, total);
      std::fflush(stdout);
    });
    double provisionalMs = -1;
    const auto deadline = Clock::now() + std::chrono::milliseconds(a.budgetMs);
    // Early reports ("better"): the parent can run such a candidate live before the last round ends.
    const auto better = [](const Choice& c) {
      std::printf("better %s %s %.6f\n", c.strategy.c_str(), c.variant.empty() ? "-" : c.variant.c_str(),
                  c.ms);
      std::fflush(stdout);
    };
    const auto results = measureCandidates(candidates, ctx, filter, a.width, a.height, deadline,
                                           &provisionalMs, {}, nullptr, better);
    std::printf("provisional %.6f\n", provisionalMs);
    for (const Choice& c : results)
      std::printf("result %s %s %.6f\n", c.strategy.c_str(), c.variant.empty() ? "-" : c.variant.c_str(),
                  c.ms);
    std::fflush(stdout);
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "convolab-measure: %s\n", e.what());
    return e.kind() == ErrorKind::Usage ? 2 : e.kind() == ErrorKind::BadInput ? 3 : 4;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "convolab-measure: %s\n", e.what());
    return 4;
  }
}

}  // namespace convolab::auto_detail
