// Conversions between OpenCV's BGR cv::Mat and the core's RGB8 Image (one cvtColor each way, no extra copy).
#pragma once

#include <memory>
#include <opencv2/core.hpp>

#include "convolab/image.hpp"

namespace convolab::capture {

/// RGB8 Image from a BGR, BGRA or grey 8-bit Mat (other depths are scaled to 8 bits first).
std::shared_ptr<Image> imageFromMat(const cv::Mat& mat);
/// Converts into an existing Image when the size matches (reuses its buffer), else reallocates.
void imageFromMat(const cv::Mat& mat, Image& out);
/// A Mat header over the Image's pixels (no copy); channel order stays RGB.
cv::Mat matView(const Image& image);
/// A BGR copy of the Image, as cv::imencode / VideoWriter expect.
cv::Mat bgrFromImage(const Image& image);

}  // namespace convolab::capture
