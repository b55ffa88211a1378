// SPDX-License-Identifier: MIT
// image_difference.hpp for cv::Mat: a view of an 8-bit 3-channel Mat, so the tests that compare OpenCV's
// results (imread, filter2D, cvtColor) use the same difference and the same size convention as the others.
#pragma once

#include <opencv2/core.hpp>

#include "image_difference.hpp"

namespace convolab::test {

/// A view of `m`'s pixels, rows at its step (a sub-matrix too). An empty Mat (a failed imread) is a 0×0 view;
/// any type but CV_8UC3 throws std::invalid_argument. The channel order (BGR or RGB) does not matter to a
/// difference, as long as both sides have the same.
ImageView viewOf(const cv::Mat& m);

/// maxAbsDiff of two 8-bit 3-channel Mats: kSizesDiffer when their sizes differ (an empty Mat included).
inline int maxAbsDiff(const cv::Mat& a, const cv::Mat& b) {
  return maxAbsDiff(viewOf(a), viewOf(b));
}

}  // namespace convolab::test
