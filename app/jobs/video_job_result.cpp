// SPDX-License-Identifier: MIT
// VideoJobResult's lines for the user.
#include "video_job_result.hpp"

#include <sstream>

#include "frame_timeline.hpp"

namespace convolab::jobs {

std::string VideoJobResult::slowestStage() const {
  if (decodeMs >= deviceMs && decodeMs >= encodeMs) return "decode";
  return encodeMs >= deviceMs ? "encode" : "device";
}

std::string VideoJobResult::timingNote() const {
  const bool allDecoded = declaredFrames <= 0 || decodedFrames == declaredFrames;
  if (allDecoded && repeatedFrames == 0 && droppedFrames == 0) return {};
  std::ostringstream s;
  s << "decoded " << decodedFrames;
  if (declaredFrames > 0) s << " of " << declaredFrames << " declared";
  s << " frames";
  if (repeatedFrames > 0)
    s << "; " << repeatedFrames << " written again where the input's timestamps say a frame lasts longer";
  if (droppedFrames > 0)
    s << "; " << droppedFrames << " dropped (more than one frame within a frame interval)";
  if (cutFrames > 0)
    s << "; " << cutFrames << " frame intervals left out (the timestamps or the declared length say a frame "
      << "lasts over " << kMaxHoldSeconds << " s: the output is bounded by what was decoded)";
  return s.str();
}

}  // namespace convolab::jobs
