// SPDX-License-Identifier: MIT
// VideoJob: filters a whole video file (OpenCV videoio) through the engine and writes a new video
// atomically; decode (capture's VideoReader), device and encode run on their own threads. Used by `apply`
// and the app's export.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "convolab/context.hpp"
#include "convolab/filter.hpp"
#include "convolab/strategy_id.hpp"

namespace convolab::jobs {

struct VideoJobOptions {
  std::filesystem::path input, output;
  FilterSet filter;
  std::string strategy = std::string(kAutoStrategy);
  std::shared_ptr<Context> context;
  std::string codec;  ///< FOURCC; empty: by output extension (videoCodecFor)
  bool overwrite = false;
  const std::atomic<bool>* stop = nullptr;  ///< when it turns true the job stops and discards its output
  /// Frames written so far and the total (≤ 0 when the container does not say). Called from the job's
  /// threads.
  std::function<void(std::int64_t done, std::int64_t total)> progress;
  /// Remarks for the user (audio dropped, streaming unavailable, engine fallbacks).
  std::function<void(const std::string&)> note;
};

struct VideoJobResult {
  std::int64_t frames = 0;          ///< written: constant-rate at `fps`, as long as the input
  double fps = 0;                   ///< the input's nominal frame rate (kept in the output)
  std::int64_t declaredFrames = 0;  ///< what the input's container declares (0 when it does not)
  std::int64_t decodedFrames = 0;   ///< what the decoder delivered
  std::int64_t repeatedFrames = 0;  ///< written frames that repeat the previous one (a frame lasting longer)
  std::int64_t droppedFrames = 0;   ///< decoded frames not written (several within one frame interval)
  std::int64_t cutFrames = 0;       ///< intervals not written: a frame lasts at most kMaxHoldSeconds
  int width = 0, height = 0;
  std::string codec;     ///< FOURCC written
  std::string strategy;  ///< what ran on the device
  double seconds = 0;    ///< wall time of the whole job
  /// Busy time per frame of each stage (ms): the largest is what limits throughput.
  double decodeMs = 0, deviceMs = 0, encodeMs = 0;
  bool stopped = false;  ///< stopped through `stop`: nothing was written
  std::string slowestStage() const;
  /// "decoded 68 of 444 declared frames; 376 written again where the input's timestamps say a frame lasts
  /// longer", or empty when every declared frame decoded and was written once: for the user's summary line.
  std::string timingNote() const;
};

/// The FOURCC for `output`'s extension: .mkv → FFV1 (lossless), .avi → MJPG, .mp4/.m4v/.mov → mp4v;
/// nullopt for others (then --codec is needed).
std::optional<std::string> videoCodecFor(const std::filesystem::path& output);

/// Runs the job. Throws Error(BadInput) when the input cannot be read or the output cannot be written
/// (nothing is left behind), Error(Device) when no strategy can run.
VideoJobResult runVideoJob(const VideoJobOptions& options);

}  // namespace convolab::jobs
