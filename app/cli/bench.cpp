// SPDX-License-Identifier: MIT
// `bench`: the command. Times every strategy (kernel, transfers, frame) against OpenCV's filter2D on the CPU
// and through OpenCL, or runs --soak or --latency. Its parts: bench_common (options, frames, filters),
// bench_peak (device and FP32 peak), bench_strategy (ours), bench_opencv (OpenCV's), bench_soak,
// bench_latency (the app's live path), bench_ksweep (--ksweep), bench_report (JSON, Markdown).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "bench_common.hpp"
#include "bench_ksweep.hpp"
#include "bench_latency.hpp"
#include "bench_opencv.hpp"
#include "bench_peak.hpp"
#include "bench_report.hpp"
#include "bench_soak.hpp"
#include "bench_strategy.hpp"
#include "commands.hpp"
#include "convolab/atomic_file.hpp"
#include "convolab/config.hpp"
#include "convolab/error.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "cv/filter2d.hpp"
#include "cv/mat_adapter.hpp"

namespace convolab::cli {
namespace {

using namespace bench;
namespace fs = std::filesystem;

// ---- the command ----------------------------------------------------------------------------------------

void checkWritable(const std::string& file, const char* option) {
  if (file.empty()) return;
  const fs::path p(file);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw Error(ErrorKind::BadInput,
                std::string(option) + " '" + file + "': folder '" + dir.string() + "' does not exist");
}

std::vector<std::string> chosenStrategies(const std::vector<std::string>& requested) {
  std::vector<std::string> out;
  for (const auto& s : requested) {
    if (s == "all") {
      for (const auto& n : strategyNames())
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
      continue;
    }
    requireStrategyName(s);  // Error(Usage) listing the names when unknown
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

/// The one strategy --soak and --latency run: the one asked for, or auto when every strategy is.
StrategyId requestedStrategy(const std::vector<std::string>& chosen) {
  return chosen.size() == strategyNames().size() ? StrategyId{std::string(kAutoStrategy)}
                                                 : StrategyId{chosen.front()};
}

/// What every mode of the command runs: sizes, strategies and the filter (or chain), from the options.
struct BenchSetup {
  std::vector<Size> sizes;
  std::vector<std::string> strategies;
  FilterChain chain;
  std::optional<FilterSet> single;  ///< the chain's one filter, when it is one
  FilterSet filter;                 ///< single, or the chain's first step's: K and border
  std::string filterLabel, filterDescription;
};

std::vector<Size> sizesOf(const BenchOptions& o) {
  std::vector<Size> sizes;
  for (const auto& s : o.sizes) sizes.push_back(parseSize(s));
  if (o.soak > 0 && o.latency > 0) throw Error(ErrorKind::Usage, "--soak and --latency: choose one");
  if (sizes.empty())
    sizes = o.soak > 0          ? std::vector<Size>{{640, 480}}
            : o.latency > 0     ? std::vector<Size>{{1920, 1080}}
            : !o.ksweep.empty() ? std::vector<Size>{{1280, 720}}
                                : std::vector<Size>{{1920, 1080}, {3840, 2160}};
  return sizes;
}

BenchSetup setUp(const BenchOptions& o) {
  if (o.ksize % 2 == 0) throw Error(ErrorKind::Usage, "--ksize " + std::to_string(o.ksize) + ": must be odd");
  checkWritable(o.json, "--json");
  checkWritable(o.markdown, "--markdown");
  BenchSetup s;
  s.sizes = sizesOf(o);
  s.strategies = chosenStrategies(o.strategies);
  s.chain = benchChain(o.filter, o.ksize, s.filterDescription);
  if (!o.ksweep.empty()) {
    // The sweep builds the filter again at each of its K: the report's header must not name --ksize's.
    const std::string kk = std::to_string(o.ksize) + "x" + std::to_string(o.ksize);
    if (const size_t at = s.filterDescription.find(kk); at != std::string::npos)
      s.filterDescription.replace(at, kk.size(), "KxK at each K of the sweep");
  }
  const std::vector<ChainStep> on = s.chain.enabledSteps();
  if (!on.empty() && !s.strategies.empty() && std::none_of(on.begin(), on.end(), [](const ChainStep& c) {
        return !c.isMagnitude() && !c.isCustom();
      })) {
    // No filter step: the strategy runs nothing of this chain (magnitude and custom steps have kernels of
    // their own), so one row says all that every row would.
    if (s.strategies.size() > 1)
      printNote("the chain has no filter step: one row (" + s.strategies.front() + ")");
    s.strategies.resize(1);
  }
  if (!o.border.empty()) s.chain = s.chain.withBorder(*parseBorder(o.border));
  s.single = s.chain.singleFilter();
  s.filter = s.single.value_or(s.chain.steps().front().filter);
  if (!s.single && (o.soak > 0 || o.latency > 0))
    throw Error(ErrorKind::Usage, "--soak and --latency run one filter; '" + o.filter + "' is a chain");
  s.filterLabel =
      o.filter == "random" || o.filter == "gaussian" ? o.filter : fs::path(o.filter).stem().string();
  return s;
}

nlohmann::json configOf(const BenchOptions& o, const BenchSetup& s) {
  nlohmann::json config = {{"filter", s.filterLabel},
                           {"filter_description", s.filterDescription},
                           {"k", s.filter.size()},
                           {"border", std::string(borderName(s.filter.border()))},
                           {"iterations", o.iterations},
                           {"warmup", o.warmup},
                           {"seed", kSeed},
                           {"flops_per_pixel", 2 * s.filter.size() * s.filter.size() * kChannels}};
  if (!s.single) {  // k and border above are the first step's
    config["steps"] = s.chain.enabledSteps().size();
    config["flops_per_pixel"] = chainFlopsPerPixel(s.chain);
  }
  return config;
}

void runSoakMode(const std::shared_ptr<Context>& ctx, const BenchSetup& s, int frames, BenchReport& report) {
  report.device = deviceReport(*ctx, false);
  const StrategyId strategy = requestedStrategy(s.strategies);
  report.config["soak_frames"] = frames;
  progress("soak: " + std::to_string(frames) + " frames of " + s.sizes.front().label() + " through '" +
           strategy.toString() + "'");
  report.soak = runSoak(ctx, strategy, s.filter, s.sizes.front(), frames);
  for (const auto& n : report.soak->notices) printNote(n);
}

void runLatencyMode(const std::shared_ptr<Context>& ctx, const BenchOptions& o, const BenchSetup& s,
                    BenchReport& report) {
  report.device = deviceReport(*ctx, false);
  const StrategyId strategy = requestedStrategy(s.strategies);
  report.config["latency_seconds"] = o.latency;
  report.config["latency_fps"] = o.latencyFps;
  for (const Size& size : s.sizes) {
    progress("latency: " + fmt(o.latency, 1) + " s of " + size.label() + " at " + fmt(o.latencyFps, 1) +
             " fps through '" + strategy.toString() + "' (preparing first)");
    LatencyReport l = runLatency(ctx, strategy, s.filter, size, o.latency, o.latencyFps, o.latencyEdits);
    for (const auto& n : l.notices) printNote(n);
    progress("latency " + size.label() + " " + l.active + ": mean " + fmt(l.latency.mean) + " ms, p50 " +
             fmt(l.latency.p50) + ", p95 " + fmt(l.latency.p95) + ", max " + fmt(l.latency.max) + "; " +
             std::to_string(l.processed) + " frames processed, " + std::to_string(l.dropped) +
             " dropped of " + std::to_string(l.produced));
    for (const auto& [kind, ms] : l.edits)
      progress("  edit " + kind + ": " + (ms ? fmt(*ms) + " ms to display" : std::string("never displayed")));
    report.latency.push_back(std::move(l));
  }
}

/// The device's allocation limit first: a frame it cannot hold is a usage error, not 12 GiB of host memory
/// and a failure later.
void checkFrameFits(const Context& ctx, Size size) {
  const std::uint64_t frameBytes =
      static_cast<std::uint64_t>(size.width) * static_cast<std::uint64_t>(size.height) * kBytesPerPixel;
  if (frameBytes > ctx.device().maxAllocBytes)
    throw Error(ErrorKind::BadInput, "--size " + size.label() + ": a frame of " +
                                         std::to_string(frameBytes >> 20) + " MiB exceeds the device's " +
                                         std::to_string(ctx.device().maxAllocBytes >> 20) +
                                         " MiB allocation limit");
}

/// Every strategy (and OpenCV, unless `cvReason` says why not) at one size.
void runOneSize(const std::shared_ptr<Context>& ctx, const BenchOptions& o, const BenchSetup& s, Size size,
                const std::optional<std::string>& cvReason, BenchReport& report) {
  checkFrameFits(*ctx, size);
  if (o.kernelLoop > 0) {
    try {
      report.launchFloor.push_back(measureLaunchFloor(*ctx, size, o.kernelLoop));
      progress(size.label() + " launch floor: " + report.launchFloor.back().dump());
    } catch (const std::exception& e) {
      printNote(std::string("launch floor probe failed: ") + e.what());
    }
  }
  const Image frame = randomFrame(size);
  OpenCVRun cvRun{
      s.filter, opencv::channelKernels(s.filter), report.opencvInfo, o, size, opencv::asMat(frame)};
  std::optional<cv::Mat> expected;
  std::vector<OpenCVResult> cvResults;
  if (!o.skipOpenCV && !cvReason) {
    progress(size.label() + " OpenCV filter2D on the CPU");
    cv::Mat e;
    cvResults = cvRun.cpu(e);
    expected = e;
  } else if (!s.chain.hasCustomStep() && static_cast<double>(size.width) * size.height <= 4e6) {
    // (a custom OpenCL step has no CPU reference: such a chain's rows are timed, not checked)
    Image ref(size.width, size.height);
    referenceChain(frame.view(), ref.mutableView(), s.chain);  // a one-filter chain: referenceConvolve
    expected = opencv::asMat(ref).clone();
  }
  const FilterChain* chain = s.single ? nullptr : &s.chain;
  for (const auto& name : s.strategies) {
    StrategyResult r =
        runStrategy(ctx, name, s.filter, s.filterLabel, frame, o, expected, report.device.peakGflops, chain);
    printRow(r);
    if (name == kAutoStrategy)
      report.autoChoice.emplace_back(size.label(), r.active.empty() ? r.status + ": " + r.reason : r.active);
    report.results.push_back(std::move(r));
  }
  if (chain) {  // the whole chain in one launch, beside the step-by-step rows (ARCHITECTURE.md, Chains)
    StrategyResult r = runStrategy(ctx, "naive", s.filter, s.filterLabel, frame, o, expected,
                                   report.device.peakGflops, chain, ChainFusion::Fused);
    r.strategy = r.active = "fused";
    for (const std::string& n : r.notices)
      if (n.find("runs step by step: fused") != std::string::npos) r.status = "skipped", r.reason = n;
    printRow(r);
    report.results.push_back(std::move(r));
  }
  if (!o.skipOpenCV && !cvReason && report.opencvInfo.openclUsed) {
    progress(size.label() + " OpenCV filter2D through OpenCL (" + report.opencvInfo.openclDevice + ")");
    for (auto& r : cvRun.opencl()) cvResults.push_back(std::move(r));
  }
  fillComparisons(cvResults, report.results, size.label());
  for (auto& r : cvResults) report.opencv.push_back(std::move(r));
}

/// The timing modes: every strategy at every size, or (--ksweep) at every K.
void runTimings(const std::shared_ptr<Context>& ctx, const BenchOptions& o, const BenchSetup& s,
                BenchReport& report) {
  report.device = deviceReport(*ctx, !o.skipProbe);
  if (report.device.probeGflops)
    progress("FMA probe: " + fmt(*report.device.probeGflops, 1) + " GFLOP/s; peak used: " +
             fmt(report.device.peakGflops, 1) + " GFLOP/s (" + report.device.peakSource + ")");
  report.opencvInfo = setUpOpenCV(ctx->device(), !o.skipOpenCV);
  if (!report.opencvInfo.note.empty()) printNote(report.opencvInfo.note);
  const auto cvReason =
      s.single ? opencv::opencvUnsupportedReason(s.filter)
               : std::optional<std::string>(s.chain.hasCustomStep()
                                                ? "custom OpenCL (OpenCV runs one filter here)"
                                                : "a chain of several steps (OpenCV runs one filter here)");
  if (cvReason && !o.skipOpenCV) printNote("OpenCV skipped: " + *cvReason);
  if (!o.ksweep.empty()) {
    for (const Size& size : s.sizes) checkFrameFits(*ctx, size);
    runKSweep(ctx, o, s.sizes, s.strategies, report);
    return;
  }
  for (const Size& size : s.sizes) runOneSize(ctx, o, s, size, cvReason, report);
}

int runBench(const BenchOptions& o) {
  // The bench's auto row is auto after it measured (as it was before the provisional strategy existed);
  // --latency is the app's live path, so auto measures in the background there as in the app.
  if (!std::getenv("CONVOLAB_AUTO_MEASURE")) {
    CoreConfig config = coreConfig();
    config.autoMeasure = o.latency > 0 ? CoreConfig::AutoMeasure::Background : CoreConfig::AutoMeasure::Now;
    setCoreConfig(config);
  }
  if (!o.ksweep.empty() && (o.soak > 0 || o.latency > 0))
    throw Error(ErrorKind::Usage, "--ksweep times strategies: not with --soak or --latency");
  if (!o.ksweep.empty() && o.filter != "random" && o.filter != "gaussian")
    throw Error(ErrorKind::Usage, "--ksweep builds the filter at each K: use --filter random or gaussian");
  const BenchSetup s = setUp(o);
  auto ctx = std::make_shared<Context>(o.device);
  BenchReport report;
  report.config = configOf(o, s);
  progress("device " + ctx->device().spec() + " " + ctx->device().describe());
  if (o.soak > 0)
    runSoakMode(ctx, s, o.soak, report);
  else if (o.latency > 0)
    runLatencyMode(ctx, o, s, report);
  else
    runTimings(ctx, o, s, report);

  const std::string markdown = toMarkdown(report);
  if (!o.json.empty()) writeFileAtomically(o.json, toJson(report).dump(2) + "\n", true);
  if (!o.markdown.empty()) writeFileAtomically(o.markdown, markdown, true);
  if (!o.quiet) std::cout << markdown;
  return kExitOk;
}

/// --ksweep and --ksweep-budget (bench_ksweep.hpp).
void addKSweepOptions(CLI::App* cmd, BenchOptions& o) {
  CLI::Option* ksweep =
      cmd->add_option(
             "--ksweep", o.ksweep,
             "Instead of one K: every strategy, auto and OpenCV's filter2D on the CPU at each K of a list "
             "of K, A:B or A:B:STEP (e.g. 3:63:2 or 3,7,15,31,63) with the built-in random or gaussian "
             "filter (default size 1280x720; kernels and pageable frames only)")
          ->delimiter(',')
          ->allow_extra_args(false);
  cmd->add_option(
         "--ksweep-budget", o.ksweepBudget,
         "With --ksweep: a strategy whose row took longer than SECONDS (build and timing) is not run at "
         "larger K, with that reason")
      ->check(CLI::Range(0.0, 86400.0))
      ->needs(ksweep)
      ->capture_default_str();
}

}  // namespace

void addBenchCommand(CLI::App& app, Action& action) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "Time every strategy on synthetic frames against OpenCV's filter2D (CPU and OpenCL).");
  cmd->add_option("--size", o->sizes,
                  "Frame size WxH; repeat or separate with commas (default 1920x1080,3840x2160; "
                  "640x480 with --soak, 1920x1080 with --latency)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("-s,--strategy", o->strategies, "Strategy name(s) or 'all'; repeat or separate with commas")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->capture_default_str();
  cmd->add_option("-f,--filter", o->filter,
                  "'random' (dense per-channel 7x7), 'gaussian' (rank-1 7x7) or a file")
      ->capture_default_str();
  cmd->add_option("-b,--border", o->border, "Override the filter's border mode")
      ->check(CLI::IsMember({"replicate", "reflect", "reflect101", "wrap", "constant"}));
  cmd->add_option("-d,--device", o->device,
                  "OpenCL device: gpu, cpu, P:D or a name substring (see `devices`)");
  cmd->add_option("-n,--iterations", o->iterations, "Timed frames per strategy and size")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("-w,--warmup", o->warmup,
                  "Untimed frames first (at least 1 for ours: it builds the kernels)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  cmd->add_option("--json", o->json, "Write the results as JSON (docs/CLI.md)");
  cmd->add_option("--markdown", o->markdown, "Write the results as Markdown tables");
  cmd->add_option("--soak", o->soak,
                  "Instead: push N frames through one strategy and report memory (RSS) growth")
      ->check(CLI::Range(1, 100000000));
  CLI::Option* latency =
      cmd->add_option(
             "--latency", o->latency,
             "Instead: run the app's live path (paced capture into pinned staging, newest-wins slot, "
             "engine, display: OpenGL through EGL, else a CPU stub) for SECONDS per size and report "
             "capture-to-display latency")
          ->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--latency-fps", o->latencyFps, "With --latency: the capture rate in frames/s")
      ->check(CLI::Range(1.0, 1000.0))
      ->needs(latency)
      ->capture_default_str();
  cmd->add_option(
         "--latency-edits", o->latencyEdits,
         "With --latency: edit the filter every MS milliseconds (K 3-15 dense and separable, a border, "
         "zero padding, a coefficient) and report each edit's time to the first displayed frame made "
         "with it")
      ->check(CLI::Range(1.0, 600000.0))
      ->needs(latency);
  cmd->add_option(
         "--stream-frames", o->streamFrames,
         "Frames pushed through the overlapped upload/kernel/download pipeline per strategy (0: skip)")
      ->check(CLI::Range(0, 100000000))
      ->capture_default_str();
  cmd->add_option("-k,--ksize", o->ksize, "K of the built-in 'random' and 'gaussian' filters")
      ->check(CLI::Range(1, kMaxFilterSize))
      ->capture_default_str();
  cmd->add_option("--kernel-loop", o->kernelLoop,
                  "Also time N back-to-back launches per strategy on device buffers, plus the launch floor "
                  "(empty kernel, frame copy)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  addKSweepOptions(cmd, *o);
  cmd->add_flag("--variants", o->variants, "With --kernel-loop: every tuning variant, not only the default");
  cmd->add_flag("--skip-opencv", o->skipOpenCV, "Do not run OpenCV's filter2D");
  cmd->add_option("--opencv-budget", o->opencvBudget,
                  "Seconds for each OpenCV variant's calls: where its first call says the warm-up and timed "
                  "ones would take longer, fewer timed calls (at least one), with the reason")
      ->check(CLI::Range(0.0, 86400.0))
      ->capture_default_str();
  cmd->add_flag("--skip-probe", o->skipProbe,
                "Do not run the FMA probe kernel (peak from the device name only)");
  cmd->add_flag("-q,--quiet", o->quiet, "Do not print the Markdown report on stdout");
  cmd->callback([o, &action] { action = [o] { return runBench(*o); }; });
}

}  // namespace convolab::cli
