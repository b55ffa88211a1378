// SPDX-License-Identifier: MIT
// A captured frame: RGB8 pixels shared by value between threads, its sequence number and capture time.
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
};

}  // namespace convolab::capture
