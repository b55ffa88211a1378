// SPDX-License-Identifier: MIT
// TimedFrame: a frame on its way through the video job and how many times the encoder writes it.
#pragma once

#include <cstdint>
#include <opencv2/core.hpp>

namespace convolab::jobs {

struct TimedFrame {
  cv::Mat image;
  std::int64_t copies = 1;
};

}  // namespace convolab::jobs
