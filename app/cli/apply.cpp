// SPDX-License-Identifier: MIT
// `apply`: filter image files, folders of images and videos through the Engine; every output is written
// atomically, a batch goes on past bad files, and Ctrl+C stops cleanly (exit 130).
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <opencv2/core.hpp>
#include <sstream>

#include "batch_plan.hpp"
#include "commands.hpp"
#include "convolab/border.hpp"
#include "convolab/config.hpp"
#include "convolab/device.hpp"
#include "convolab/engine.hpp"
#include "convolab/error.hpp"
#include "convolab/filter_chain_io.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/printable_path.hpp"
#include "convolab/registry.hpp"
#include "cv/image_codec.hpp"
#include "image_batch.hpp"
#include "jobs/signal_guard.hpp"
#include "jobs/video_job.hpp"
#include "progress_reporter.hpp"

namespace convolab::cli {
namespace {

namespace fs = std::filesystem;
using jobs::runVideoJob;
using jobs::SignalGuard;
using jobs::videoCodecFor;
using jobs::VideoJobOptions;
using jobs::VideoJobResult;

struct ApplyOptions {
  std::string filter;
  std::string border;
  std::string strategy = std::string(kAutoStrategy);
  std::vector<std::string> devices;
  std::vector<std::string> inputs;
  std::string output;
  std::string suffix;
  std::string codec;
  bool force = false;
  bool skipExisting = false;
  bool acceptDamaged = false;
  bool quiet = false;
  std::int64_t maxPixels = opencv::kDefaultMaxPixels;
};

std::vector<std::string> borderNames() {
  std::vector<std::string> names;
  for (BorderMode m : kAllBorderModes) names.emplace_back(borderName(m));
  return names;
}

/// Checks of a single `-o FILE` that cost nothing, done before any device work.
void checkSingleOutput(const BatchItem& item, const ApplyOptions& o) {
  const fs::path& output = item.output;
  if (item.kind == InputKind::Image && !opencv::canWriteImageFormat(output))
    throw Error(ErrorKind::Usage, "cannot write '" + printablePath(output) +
                                      "': unsupported output format '" + printablePath(output.extension()) +
                                      "' (use .png, .jpg, .bmp, .tif, .ppm, ...)");
  if (item.kind == InputKind::Video && o.codec.empty() && !videoCodecFor(output))
    throw Error(ErrorKind::Usage, "cannot write video '" + printablePath(output) +
                                      "': use .mkv (FFV1), .avi (MJPG) or .mp4 (mp4v), or --codec FOURCC");
  std::error_code ec;
  const fs::path folder = output.has_parent_path() ? output.parent_path() : fs::path(".");
  if (!fs::is_directory(folder, ec))
    throw Error(ErrorKind::BadInput, "cannot write '" + printablePath(output) + "': folder '" +
                                         printablePath(folder) + "' does not exist");
  if (!o.force && !o.skipExisting && (fs::exists(output, ec) || fs::is_symlink(output, ec)))
    throw Error(ErrorKind::BadInput,
                "'" + printablePath(output) + "' already exists; use --force to replace it");
}

std::vector<std::shared_ptr<Context>> openContexts(const std::vector<std::string>& specs) {
  std::vector<std::shared_ptr<Context>> contexts;
  if (specs.empty()) {
    contexts.push_back(std::make_shared<Context>(std::string()));
    return contexts;
  }
  for (const std::string& spec : specs) {
    if (spec == "all") {
      for (const DeviceInfo& d : listDevices()) contexts.push_back(std::make_shared<Context>(d));
      if (contexts.empty()) throw Error(ErrorKind::Device, "--device all: no OpenCL device found");
    } else {
      contexts.push_back(std::make_shared<Context>(spec));
    }
  }
  return contexts;
}

int runApply(const ApplyOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  // A job starts at once: auto runs a stored choice or the provisional strategy and measures nothing behind
  // it; a video long enough to repay a measurement starts one itself (video_job.cpp). CONVOLAB_AUTO_MEASURE
  // set by the user wins.
  if (!std::getenv("CONVOLAB_AUTO_MEASURE")) {
    CoreConfig config = coreConfig();
    config.autoMeasure = CoreConfig::AutoMeasure::Off;
    setCoreConfig(config);
  }
  BatchPlan plan = planBatch(o.inputs, o.output, o.suffix);
  const std::size_t total = plan.items.size() + plan.problems.size();
  const bool single = total == 1 && !plan.outputIsFolder;
  if (single && !plan.items.empty()) checkSingleOutput(plan.items.front(), o);
  if (!o.codec.empty() && o.codec.size() != 4)
    throw Error(ErrorKind::Usage,
                "--codec '" + o.codec + "': a FOURCC is 4 characters (FFV1, MJPG, mp4v, ...)");

  // A chain file (docs/FILTER_FORMAT.md, Chains) runs as a chain; any file that means one filter, as before.
  FilterChain chain = loadFilterChainFile(o.filter);
  if (!o.border.empty()) chain = chain.withBorder(*parseBorder(o.border));
  const std::optional<FilterSet> oneFilter = chain.singleFilter();
  const FilterSet filter = oneFilter.value_or(chain.steps().front().filter);

  ProgressReporter progress(!o.quiet && ::isatty(2));
  int failed = 0, written = 0, skipped = 0;
  ErrorKind lastKind = ErrorKind::BadInput;
  auto reportFailure = [&](const std::string& message, ErrorKind kind) {
    ++failed;
    lastKind = kind;
    progress.println(std::cerr, std::string("convolab-cli: error: ") + message);
  };
  for (const BatchProblem& p : plan.problems)
    reportFailure("'" + printablePath(p.input) + "': " + p.reason, ErrorKind::BadInput);

  std::vector<BatchItem> images, videos;
  for (BatchItem& item : plan.items)
    (item.kind == InputKind::Video ? videos : images).push_back(std::move(item));
  const auto contexts =
      plan.items.empty() ? std::vector<std::shared_ptr<Context>>{} : openContexts(o.devices);

  // SIGINT/SIGTERM: main() installed the guard before anything else; the work polls its flag.
  if (!images.empty()) {
    ImageBatchOptions io;
    io.filter = filter;
    if (!oneFilter) io.chain = chain;
    io.strategy = o.strategy;
    io.contexts = contexts;
    io.overwrite = o.force;
    io.skipExisting = o.skipExisting;
    io.maxPixels = o.maxPixels;
    io.acceptDamaged = o.acceptDamaged;
    io.stop = &SignalGuard::stopFlag();
    if (images.size() > 1) progress.start(static_cast<std::int64_t>(images.size()), "files");
    std::int64_t finished = 0;
    runImageBatch(images, io, [&](std::size_t, const ItemOutcome& r) {
      ++finished;
      switch (r.status) {
        case ItemOutcome::Status::Written:
          ++written;
          if (!o.quiet) progress.println(std::cout, r.message);
          break;
        case ItemOutcome::Status::Skipped:
          ++skipped;
          if (!o.quiet) progress.println(std::cout, r.message);
          break;
        case ItemOutcome::Status::Failed:
          reportFailure(r.message, r.kind);
          break;
        case ItemOutcome::Status::NotRun:
          break;
      }
      progress.update(finished);
    });
    progress.finish();
  }

  for (const BatchItem& item : videos) {
    if (SignalGuard::stopRequested()) break;
    if (!oneFilter) {  // the video job streams one filter (FrameStream)
      reportFailure("'" + printablePath(item.input) +
                        "': a chain of several steps or a custom OpenCL step cannot filter a video yet",
                    ErrorKind::Usage);
      continue;
    }
    std::error_code ec;
    if (fs::exists(item.output, ec) && o.skipExisting) {
      ++skipped;
      if (!o.quiet) progress.println(std::cout, "skipped " + printablePath(item.output) + " (exists)");
      continue;
    }
    VideoJobOptions vo;
    vo.input = item.input;
    vo.output = item.output;
    vo.filter = filter;
    vo.strategy = o.strategy;
    vo.context = contexts.front();
    vo.codec = o.codec;
    vo.overwrite = o.force;
    vo.stop = &SignalGuard::stopFlag();
    vo.note = [&](const std::string& n) {
      if (!o.quiet) progress.println(std::cerr, "convolab-cli: note: " + n);
    };
    bool started = false;
    vo.progress = [&](std::int64_t done, std::int64_t frames) {
      if (!started) {
        started = true;
        progress.start(frames, "frames", printablePath(item.input.filename()));
      }
      progress.update(done);
    };
    try {
      const VideoJobResult r = runVideoJob(vo);
      progress.finish();
      if (r.stopped) {
        progress.println(std::cerr, "convolab-cli: stopped: " + printablePath(item.output) +
                                        " was not written (the frames filtered so far are discarded)");
        break;
      }
      ++written;
      if (!o.quiet) {
        std::ostringstream line;
        line.precision(3);
        line << "wrote " << printablePath(item.output) << " (" << r.width << "x" << r.height << ", "
             << r.frames << " frames at " << r.fps << " fps = " << static_cast<double>(r.frames) / r.fps
             << " s";
        if (const std::string timing = r.timingNote(); !timing.empty()) line << "; " << timing;
        line << ", " << r.codec << ", strategy " << r.strategy << " on " << vo.context->device().name << ", "
             << (r.seconds > 0 ? r.frames / r.seconds : 0) << " frames/s; per frame: decode " << r.decodeMs
             << " ms, device " << r.deviceMs << " ms, encode " << r.encodeMs
             << " ms; slowest: " << r.slowestStage() << ")";
        progress.println(std::cout, line.str());
      }
    } catch (const Error& e) {
      progress.finish();
      reportFailure(e.what(), e.kind());
    } catch (const cl::Error& e) {
      progress.finish();
      reportFailure(ClError(e.what(), e.err()).what(), ErrorKind::Device);
    } catch (const cv::Exception& e) {
      progress.finish();
      reportFailure("video '" + printablePath(item.input) + "': OpenCV: " + e.what(), ErrorKind::BadInput);
    }
  }

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Stopped means a signal cost an output; one that came after the last output was written changed nothing,
  // and the exit code says how the work went.
  const std::size_t notDone = total - static_cast<std::size_t>(written + skipped + failed);
  const bool signalled = SignalGuard::stopRequested();
  const bool stopped = signalled && notDone > 0;
  if (!o.quiet && (total > 1 || signalled || !videos.empty())) {
    std::ostringstream s;
    s.precision(3);
    s << "convolab-cli: " << total << (total == 1 ? " input: " : " inputs: ") << written << " written, "
      << skipped << " skipped, " << failed << " failed";
    if (stopped) s << ", " << notDone << " not done (stopped)";
    s << " in " << seconds << " s";
    if (signalled && !stopped) s << "; the stop request came after the last output was written";
    std::cerr << s.str() << "\n";
  }
  if (stopped) return kExitInterrupted;
  if (failed == 0) return kExitOk;
  if (single) {
    switch (lastKind) {
      case ErrorKind::Usage:
        return kExitUsage;
      case ErrorKind::Device:
        return kExitDevice;
      case ErrorKind::BadInput:
        return kExitBadInput;
    }
  }
  return kExitBadInput;
}

}  // namespace

void addApplyCommand(CLI::App& app, Action& action) {
  auto o = std::make_shared<ApplyOptions>();
  CLI::App* cmd = app.add_subcommand(
      "apply", "Filter image files, folders of images and videos with a filter file and write the results.");
  cmd->add_option("INPUT", o->inputs,
                  "Images (any format OpenCV reads), folders (their images) or videos (any format OpenCV's "
                  "videoio reads)")
      ->required();
  cmd->add_option("-o,--output", o->output,
                  "Output file for one input (its extension picks the format), or a folder (ends with /) "
                  "where each output keeps its input's name")
      ->required();
  cmd->add_option("-f,--filter", o->filter, "Filter file (.json, see docs/FILTER_FORMAT.md)")->required();
  cmd->add_option("-b,--border", o->border, "Override the filter's border mode")
      ->check(CLI::IsMember(borderNames()));
  cmd->add_option("-s,--strategy", o->strategy, "Convolution strategy (see `strategies`)")
      ->capture_default_str()
      ->check(CLI::IsMember(strategyNames()));
  // One value per occurrence (several: repeat it or separate with commas), so `-d cpu IN` leaves IN an input.
  cmd->add_option(
         "-d,--device", o->devices,
         "OpenCL device: gpu, cpu, P:D or a name substring (see `devices`); repeat it, separate with "
         "commas, or say `all`, to spread images over several devices")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--suffix", o->suffix, "With -o DIR/: append this to each output's name (e.g. _filtered)");
  cmd->add_option("--codec", o->codec,
                  "Video codec FOURCC (default by extension: .mkv FFV1, .avi MJPG, .mp4 mp4v)");
  cmd->add_flag("--force", o->force, "Replace outputs that exist (keeping their permissions)");
  cmd->add_flag("--skip-existing", o->skipExisting, "Skip inputs whose output exists (resume a batch)");
  cmd->add_option("--max-pixels", o->maxPixels, "Refuse larger images (checked from the header first)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_flag(
      "--accept-damaged", o->acceptDamaged,
      "Filter a damaged image (truncated or corrupt JPEG) as far as it decodes, with a note, instead "
      "of refusing it");
  cmd->add_flag("-q,--quiet", o->quiet, "Print nothing on success");
  cmd->callback([o, &action] { action = [o] { return runApply(*o); }; });
}

}  // namespace convolab::cli
