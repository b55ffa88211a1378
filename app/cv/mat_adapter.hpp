// SPDX-License-Identifier: MIT
// Mat adapter: cv::Mat headers over the core's RGB8 images and views, and conversions from OpenCV's BGR Mats.
#pragma once

#include <memory>
#include <opencv2/core.hpp>

#include "convolab/image.hpp"

namespace convolab::opencv {

/// A CV_8UC3 header over the pixels (RGB order, the image's stride; no copy). cv::Mat has no const view: the
/// callers that pass a const image or ImageView only read through it.
cv::Mat asMat(Image& image);
cv::Mat asMat(const Image& image);
cv::Mat asMat(const ImageView& view);
cv::Mat asMat(const MutableImageView& view);

/// RGB8 Image from a BGR, BGRA or grey Mat (16-bit keeps its top 8 bits, as imread(IMREAD_COLOR) does).
std::shared_ptr<Image> imageFromMat(const cv::Mat& mat);
/// Converts into an existing Image when the size matches (reuses its buffer), else reallocates.
void imageFromMat(const cv::Mat& mat, Image& out);
/// A BGR copy of the Image, as cv::imencode / VideoWriter expect.
cv::Mat bgrFromImage(const Image& image);

}  // namespace convolab::opencv
