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

#include "apply_tally.hpp"
#include "apply_videos.hpp"
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
#include "jobs/video_codec.hpp"
#include "progress_reporter.hpp"

namespace convolab::cli {
namespace {

namespace fs = std::filesystem;
using jobs::SignalGuard;
using jobs::videoCodecFor;

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

/// A job starts at once: auto runs a stored choice or the provisional strategy and measures nothing behind
/// it; a video long enough to repay a measurement starts one itself (video_device_stage.cpp).
/// CONVOLAB_AUTO_MEASURE set by the user wins.
void startJobsWithoutMeasuring() {
  if (std::getenv("CONVOLAB_AUTO_MEASURE")) return;
  CoreConfig config = coreConfig();
  config.autoMeasure = CoreConfig::AutoMeasure::Off;
  setCoreConfig(config);
}

void applyImages(const std::vector<BatchItem>& images, const FilterChain& chain, const FilterSet& filter,
                 const std::vector<std::shared_ptr<Context>>& contexts, const ApplyOptions& o,
                 ApplyTally& tally) {
  ProgressReporter& progress = tally.progress;
  ImageBatchOptions io;
  io.filter = filter;
  if (!chain.singleFilter()) io.chain = chain;
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
        ++tally.written;
        if (!o.quiet) progress.println(std::cout, r.message);
        break;
      case ItemOutcome::Status::Skipped:
        ++tally.skipped;
        if (!o.quiet) progress.println(std::cout, r.message);
        break;
      case ItemOutcome::Status::Failed:
        tally.fail(r.message, r.kind);
        break;
      case ItemOutcome::Status::NotRun:
        break;
    }
    progress.update(finished);
  });
  progress.finish();
}

/// Whether a signal cost an output; one that came after the last output was written changed nothing, and
/// the exit code says how the work went. Prints the summary line unless --quiet or a lone image.
bool summarise(const ApplyTally& tally, std::size_t total, bool anyVideo, double seconds,
               const ApplyOptions& o) {
  const std::size_t notDone = total - static_cast<std::size_t>(tally.written + tally.skipped + tally.failed);
  const bool signalled = SignalGuard::stopRequested();
  const bool stopped = signalled && notDone > 0;
  if (!o.quiet && (total > 1 || signalled || anyVideo)) {
    std::ostringstream s;
    s.precision(3);
    s << "convolab-cli: " << total << (total == 1 ? " input: " : " inputs: ") << tally.written << " written, "
      << tally.skipped << " skipped, " << tally.failed << " failed";
    if (stopped) s << ", " << notDone << " not done (stopped)";
    s << " in " << seconds << " s";
    if (signalled && !stopped) s << "; the stop request came after the last output was written";
    std::cerr << s.str() << "\n";
  }
  return stopped;
}

/// A single input's failure exits with its own kind's code; a batch with failures, with kExitBadInput.
int exitCode(const ApplyTally& tally, bool stopped, bool single) {
  if (stopped) return kExitInterrupted;
  if (tally.failed == 0) return kExitOk;
  if (single) {
    switch (tally.lastKind) {
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

int runApply(const ApplyOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  startJobsWithoutMeasuring();
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
  ApplyTally tally(progress);
  for (const BatchProblem& p : plan.problems)
    tally.fail("'" + printablePath(p.input) + "': " + p.reason, ErrorKind::BadInput);

  std::vector<BatchItem> images, videos;
  for (BatchItem& item : plan.items)
    (item.kind == InputKind::Video ? videos : images).push_back(std::move(item));
  const auto contexts =
      plan.items.empty() ? std::vector<std::shared_ptr<Context>>{} : openContexts(o.devices);

  // SIGINT/SIGTERM: main() installed the guard before anything else; the work polls its flag.
  if (!images.empty()) applyImages(images, chain, filter, contexts, o, tally);
  if (!videos.empty())
    applyVideos(videos, {chain, o.strategy, o.codec, contexts.front(), o.force, o.skipExisting, o.quiet},
                tally);

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const bool stopped = summarise(tally, total, !videos.empty(), seconds, o);
  return exitCode(tally, stopped, single);
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
