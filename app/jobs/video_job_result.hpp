// SPDX-License-Identifier: MIT
// VideoJobResult: what a video job wrote, how the input's timing shaped it, and where its time went.
#pragma once

#include <cstdint>
#include <string>

namespace convolab::jobs {

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

}  // namespace convolab::jobs
