// SPDX-License-Identifier: MIT
// `apply` on videos: a failed video is counted and the next one runs; a stop discards the one running and
// ends the loop.
#include "apply_videos.hpp"

#include <CL/opencl.hpp>
#include <filesystem>
#include <opencv2/core.hpp>
#include <sstream>

#include "convolab/printable_path.hpp"
#include "jobs/signal_guard.hpp"
#include "jobs/video_job.hpp"

namespace convolab::cli {
namespace {

namespace fs = std::filesystem;
using jobs::SignalGuard;

/// "wrote out.mkv (66x50, 4 frames at 10 fps = 0.4 s, FFV1, strategy naive on …, per frame: …)"; a chain is
/// named before its strategy, as for images: "chain 'Blur, then edges' of 2 steps, strategy auto (chain: …)".
std::string writtenLine(const fs::path& output, const jobs::VideoJobResult& r, const std::string& device,
                        const FilterChain& chain) {
  std::ostringstream line;
  line.precision(3);
  line << "wrote " << printablePath(output) << " (" << r.width << "x" << r.height << ", " << r.frames
       << " frames at " << r.fps << " fps = " << static_cast<double>(r.frames) / r.fps << " s";
  if (const std::string timing = r.timingNote(); !timing.empty()) line << "; " << timing;
  line << ", " << r.codec;
  if (!chain.singleFilter()) {
    const std::size_t steps = chain.enabledSteps().size();
    line << ", chain '" << (chain.name().empty() ? std::string("custom") : chain.name()) << "' of " << steps
         << (steps == 1 ? " step" : " steps");
  }
  line << ", strategy " << r.strategy << " on " << device << ", "
       << (r.seconds > 0 ? r.frames / r.seconds : 0) << " frames/s; per frame: decode " << r.decodeMs
       << " ms, device " << r.deviceMs << " ms, encode " << r.encodeMs << " ms; slowest: " << r.slowestStage()
       << ")";
  return line.str();
}

jobs::VideoJobOptions jobOptions(const BatchItem& item, const ApplyVideoSettings& s) {
  return {.input = item.input,
          .output = item.output,
          .chain = s.chain,
          .strategy = s.strategy,
          .context = s.context,
          .codec = s.codec,
          .overwrite = s.force,
          .stop = &SignalGuard::stopFlag(),
          .progress = {},  // set by applyVideo
          .note = {}};
}

/// Runs one video; false when a stop ended it (nothing more is to run).
bool applyVideo(const BatchItem& item, const ApplyVideoSettings& s, ApplyTally& tally) {
  ProgressReporter& progress = tally.progress;
  jobs::VideoJobOptions vo = jobOptions(item, s);
  vo.note = [&](const std::string& n) {
    if (!s.quiet) progress.println(std::cerr, "convolab-cli: note: " + n);
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
    const jobs::VideoJobResult r = jobs::runVideoJob(vo);
    progress.finish();
    if (r.stopped) {
      progress.println(std::cerr, "convolab-cli: stopped: " + printablePath(item.output) +
                                      " was not written (the frames filtered so far are discarded)");
      return false;
    }
    ++tally.written;
    if (!s.quiet)
      progress.println(std::cout, writtenLine(item.output, r, vo.context->device().name, s.chain));
  } catch (const Error& e) {
    progress.finish();
    tally.fail(e.what(), e.kind());
  } catch (const cl::Error& e) {
    progress.finish();
    tally.fail(ClError(e.what(), e.err()).what(), ErrorKind::Device);
  } catch (const cv::Exception& e) {
    progress.finish();
    tally.fail("video '" + printablePath(item.input) + "': OpenCV: " + e.what(), ErrorKind::BadInput);
  }
  return true;
}

}  // namespace

void applyVideos(const std::vector<BatchItem>& videos, const ApplyVideoSettings& settings,
                 ApplyTally& tally) {
  for (const BatchItem& item : videos) {
    if (SignalGuard::stopRequested()) break;
    std::error_code ec;
    if (fs::exists(item.output, ec) && settings.skipExisting) {
      ++tally.skipped;
      if (!settings.quiet)
        tally.progress.println(std::cout, "skipped " + printablePath(item.output) + " (exists)");
      continue;
    }
    if (!applyVideo(item, settings, tally)) break;
  }
}

}  // namespace convolab::cli
