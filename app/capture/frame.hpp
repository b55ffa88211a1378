// SPDX-License-Identifier: MIT
// A captured frame: RGB8 pixels shared by value between threads, its sequence number, capture time and, for
// sources with a timeline (video files), its time in the source.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "convolab/image.hpp"

namespace convolab::capture {

using Clock = std::chrono::steady_clock;

struct Frame {
  std::shared_ptr<const Image> image;  ///< never modified once published; shared, not copied
  std::int64_t index = 0;              ///< sequence number from the source (counts every frame read)
  Clock::time_point captured{};
  /// When the frame is on screen in the source's own time, in ms from its start (video files: the
  /// decoder's presentation time); -1 for live sources, which have no timeline. Playback is paced by it.
  double timestampMs = -1;
};

}  // namespace convolab::capture
