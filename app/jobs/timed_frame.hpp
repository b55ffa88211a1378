// SPDX-License-Identifier: MIT
// TimedFrame: a frame on its way through the video job, its time and how many times the encoder writes it.
#pragma once

#include <cstdint>
#include <opencv2/core.hpp>

namespace convolab::jobs {

struct TimedFrame {
  cv::Mat image;
  std::int64_t copies = 1;
  double seconds =
      0;  ///< the frame's time from the video's first frame: the `time` a custom OpenCL step sees
};

}  // namespace convolab::jobs
