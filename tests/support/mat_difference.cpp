// SPDX-License-Identifier: MIT
#include "mat_difference.hpp"

#include <stdexcept>

namespace convolab::test {

ImageView viewOf(const cv::Mat& m) {
  if (m.empty()) return {};
  if (m.type() != CV_8UC3)
    throw std::invalid_argument("viewOf: a cv::Mat of type " + std::to_string(m.type()) + ", not CV_8UC3");
  return {m.data, m.cols, m.rows, m.step[0]};
}

}  // namespace convolab::test
