// SPDX-License-Identifier: MIT
// `bench`: the command. Times every strategy (kernel, transfers, frame) against OpenCV's filter2D on the CPU
// and through OpenCL, or runs --soak or --latency. Its parts: bench_common (options, frames, filters),
// bench_peak (device and FP32 peak), bench_strategy (ours), bench_opencv (OpenCV's), bench_soak,
// bench_latency (the app's live path), bench_report (JSON, Markdown).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "bench_common.hpp"
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

int runBench(const BenchOptions& o) {
  // The bench's auto row is auto after it measured (as it was before the provisional strategy existed);
  // --latency is the app's live path, so auto measures in the background there as in the app.
  if (!std::getenv("CONVOLAB_AUTO_MEASURE")) {
    CoreConfig config = coreConfig();
    config.autoMeasure = o.latency > 0 ? CoreConfig::AutoMeasure::Background : CoreConfig::AutoMeasure::Now;
    setCoreConfig(config);
  }
  if (o.ksize % 2 == 0) throw Error(ErrorKind::Usage, "--ksize " + std::to_string(o.ksize) + ": must be odd");
  checkWritable(o.json, "--json");
  checkWritable(o.markdown, "--markdown");
  std::vector<Size> sizes;
  for (const auto& s : o.sizes) sizes.push_back(parseSize(s));
  if (o.soak > 0 && o.latency > 0) throw Error(ErrorKind::Usage, "--soak and --latency: choose one");
  if (sizes.empty())
    sizes = o.soak > 0      ? std::vector<Size>{{640, 480}}
            : o.latency > 0 ? std::vector<Size>{{1920, 1080}}
                            : std::vector<Size>{{1920, 1080}, {3840, 2160}};
  std::vector<std::string> strategies = chosenStrategies(o.strategies);

  std::string filterDescription;
  FilterChain chain = benchChain(o.filter, o.ksize, filterDescription);
  const std::vector<ChainStep> on = chain.enabledSteps();
  if (!on.empty() && !strategies.empty() && std::none_of(on.begin(), on.end(), [](const ChainStep& s) {
        return !s.isMagnitude() && !s.isCustom();
      })) {
    // No filter step: the strategy runs nothing of this chain (magnitude and custom steps have kernels of
    // their own), so one row says all that every row would.
    if (strategies.size() > 1)
      printNote("the chain has no filter step: one row (" + strategies.front() + ")");
    strategies.resize(1);
  }
  if (!o.border.empty()) chain = chain.withBorder(*parseBorder(o.border));
  const std::optional<FilterSet> single = chain.singleFilter();
  const FilterSet filter = single.value_or(chain.steps().front().filter);  // a chain's first: k and border
  if (!single && (o.soak > 0 || o.latency > 0))
    throw Error(ErrorKind::Usage, "--soak and --latency run one filter; '" + o.filter + "' is a chain");
  const std::string filterLabel =
      o.filter == "random" || o.filter == "gaussian" ? o.filter : fs::path(o.filter).stem().string();

  auto ctx = std::make_shared<Context>(o.device);
  BenchReport report;
  report.config = {{"filter", filterLabel},
                   {"filter_description", filterDescription},
                   {"k", filter.size()},
                   {"border", std::string(borderName(filter.border()))},
                   {"iterations", o.iterations},
                   {"warmup", o.warmup},
                   {"seed", kSeed},
                   {"flops_per_pixel", 2 * filter.size() * filter.size() * kChannels}};
  if (!single) {  // k and border above are the first step's
    report.config["steps"] = chain.enabledSteps().size();
    report.config["flops_per_pixel"] = chainFlopsPerPixel(chain);
  }
  progress("device " + ctx->device().spec() + " " + ctx->device().describe());

  if (o.soak > 0) {
    report.device = deviceReport(*ctx, false);
    const StrategyId strategy = requestedStrategy(strategies);
    report.config["soak_frames"] = o.soak;
    progress("soak: " + std::to_string(o.soak) + " frames of " + sizes.front().label() + " through '" +
             strategy.toString() + "'");
    report.soak = runSoak(ctx, strategy, filter, sizes.front(), o.soak);
    for (const auto& n : report.soak->notices) printNote(n);
  } else if (o.latency > 0) {
    report.device = deviceReport(*ctx, false);
    const StrategyId strategy = requestedStrategy(strategies);
    report.config["latency_seconds"] = o.latency;
    report.config["latency_fps"] = o.latencyFps;
    for (const Size& size : sizes) {
      progress("latency: " + fmt(o.latency, 1) + " s of " + size.label() + " at " + fmt(o.latencyFps, 1) +
               " fps through '" + strategy.toString() + "' (preparing first)");
      LatencyReport l = runLatency(ctx, strategy, filter, size, o.latency, o.latencyFps, o.latencyEdits);
      for (const auto& n : l.notices) printNote(n);
      progress("latency " + size.label() + " " + l.active + ": mean " + fmt(l.latency.mean) + " ms, p50 " +
               fmt(l.latency.p50) + ", p95 " + fmt(l.latency.p95) + ", max " + fmt(l.latency.max) + "; " +
               std::to_string(l.processed) + " frames processed, " + std::to_string(l.dropped) +
               " dropped of " + std::to_string(l.produced));
      for (const auto& [kind, ms] : l.edits)
        progress("  edit " + kind + ": " +
                 (ms ? fmt(*ms) + " ms to display" : std::string("never displayed")));
      report.latency.push_back(std::move(l));
    }
  } else {
    report.device = deviceReport(*ctx, !o.skipProbe);
    if (report.device.probeGflops)
      progress("FMA probe: " + fmt(*report.device.probeGflops, 1) + " GFLOP/s; peak used: " +
               fmt(report.device.peakGflops, 1) + " GFLOP/s (" + report.device.peakSource + ")");
    report.opencvInfo = setUpOpenCV(ctx->device(), !o.skipOpenCV);
    if (!report.opencvInfo.note.empty()) printNote(report.opencvInfo.note);
    const auto cvReason =
        single ? opencv::opencvUnsupportedReason(filter)
               : std::optional<std::string>(chain.hasCustomStep()
                                                ? "custom OpenCL (OpenCV runs one filter here)"
                                                : "a chain of several steps (OpenCV runs one filter here)");
    if (cvReason && !o.skipOpenCV) printNote("OpenCV skipped: " + *cvReason);

    for (const Size& size : sizes) {
      // The device's allocation limit first: a frame it cannot hold is a usage error, not 12 GiB of host
      // memory and a failure later.
      const std::uint64_t frameBytes =
          static_cast<std::uint64_t>(size.width) * static_cast<std::uint64_t>(size.height) * kBytesPerPixel;
      if (frameBytes > ctx->device().maxAllocBytes)
        throw Error(ErrorKind::BadInput, "--size " + size.label() + ": a frame of " +
                                             std::to_string(frameBytes >> 20) + " MiB exceeds the device's " +
                                             std::to_string(ctx->device().maxAllocBytes >> 20) +
                                             " MiB allocation limit");
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
          filter, opencv::channelKernels(filter), report.opencvInfo, o, size, opencv::asMat(frame)};
      std::optional<cv::Mat> expected;
      std::vector<OpenCVResult> cvResults;
      if (!o.skipOpenCV && !cvReason) {
        progress(size.label() + " OpenCV filter2D on the CPU");
        cv::Mat e;
        cvResults = cvRun.cpu(e);
        expected = e;
      } else if (!chain.hasCustomStep() && static_cast<double>(size.width) * size.height <= 4e6) {
        // (a custom OpenCL step has no CPU reference: such a chain's rows are timed, not checked)
        Image ref(size.width, size.height);
        referenceChain(frame.view(), ref.mutableView(), chain);  // a one-filter chain: referenceConvolve
        expected = opencv::asMat(ref).clone();
      }

      for (const auto& name : strategies) {
        StrategyResult r = runStrategy(ctx, name, filter, filterLabel, frame, o, expected,
                                       report.device.peakGflops, single ? nullptr : &chain);
        if (r.status == "ok")
          progress(size.label() + " " + name + (r.active != name ? " (" + r.active + ")" : "") + ": kernel " +
                   fmt(r.kernel.median) + " ms (p95 " + fmt(r.kernel.p95) + "), frame " +
                   fmt(r.frame.median) + " ms, " + fmt(r.mpixPerS, 1) + " Mpix/s, " + fmt(r.gflops, 1) +
                   " GFLOP/s" + (r.maxAbsDiff ? ", max diff " + std::to_string(*r.maxAbsDiff) : ""));
        else
          progress(size.label() + " " + name + ": " + r.status + ": " + r.reason);
        if (name == kAutoStrategy)
          report.autoChoice.emplace_back(size.label(),
                                         r.active.empty() ? r.status + ": " + r.reason : r.active);
        report.results.push_back(std::move(r));
      }

      if (!single) {  // the whole chain in one launch, beside the step-by-step rows (ARCHITECTURE.md, Chains)
        StrategyResult r = runStrategy(ctx, "naive", filter, filterLabel, frame, o, expected,
                                       report.device.peakGflops, &chain, ChainFusion::Fused);
        r.strategy = r.active = "fused";
        for (const std::string& n : r.notices)
          if (n.find("runs step by step: fused") != std::string::npos) r.status = "skipped", r.reason = n;
        progress(size.label() + " fused: " +
                 (r.status == "ok"
                      ? "kernel " + fmt(r.kernel.median) + " ms, frame " + fmt(r.frame.median) + " ms"
                      : r.status + ": " + r.reason));
        report.results.push_back(std::move(r));
      }

      if (!o.skipOpenCV && !cvReason && report.opencvInfo.openclUsed) {
        progress(size.label() + " OpenCV filter2D through OpenCL (" + report.opencvInfo.openclDevice + ")");
        for (auto& r : cvRun.opencl()) cvResults.push_back(std::move(r));
      }
      fillComparisons(cvResults, report.results, size.label());
      for (auto& r : cvResults) report.opencv.push_back(std::move(r));
    }
  }

  const std::string markdown = toMarkdown(report);
  if (!o.json.empty()) writeFileAtomically(o.json, toJson(report).dump(2) + "\n", true);
  if (!o.markdown.empty()) writeFileAtomically(o.markdown, markdown, true);
  if (!o.quiet) std::cout << markdown;
  return kExitOk;
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
  cmd->add_flag("--variants", o->variants, "With --kernel-loop: every tuning variant, not only the default");
  cmd->add_flag("--skip-opencv", o->skipOpenCV, "Do not run OpenCV's filter2D");
  cmd->add_flag("--skip-probe", o->skipProbe,
                "Do not run the FMA probe kernel (peak from the device name only)");
  cmd->add_flag("-q,--quiet", o->quiet, "Do not print the Markdown report on stdout");
  cmd->callback([o, &action] { action = [o] { return runBench(*o); }; });
}

}  // namespace convolab::cli
