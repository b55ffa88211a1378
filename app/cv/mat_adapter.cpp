// SPDX-License-Identifier: MIT
// Mat adapter: Mat headers over RGB8 images (no copy) and one cvtColor each way between BGR and RGB.
#include "mat_adapter.hpp"

#include <opencv2/imgproc.hpp>

namespace convolab::opencv {

cv::Mat asMat(Image& image) {
  return cv::Mat(image.height, image.width, CV_8UC3, image.pixels.data(), image.stride);
}

cv::Mat asMat(const Image& image) {
  return cv::Mat(image.height, image.width, CV_8UC3, const_cast<std::uint8_t*>(image.pixels.data()),
                 image.stride);
}

cv::Mat asMat(const ImageView& view) {
  return cv::Mat(view.height, view.width, CV_8UC3, const_cast<std::uint8_t*>(view.data), view.stride);
}

cv::Mat asMat(const MutableImageView& view) {
  return cv::Mat(view.height, view.width, CV_8UC3, view.data, view.stride);
}

void imageFromMat(const cv::Mat& mat, Image& out) {
  cv::Mat src = mat;
  if (src.depth() != CV_8U) {
    // 16-bit PNG/TIFF: keep the top 8 bits, as imread(IMREAD_COLOR) does.
    const double scale = src.depth() == CV_16U ? 1.0 / 256.0 : 1.0;
    src.convertTo(src, CV_8U, scale);
  }
  if (out.width != src.cols || out.height != src.rows) out = Image(src.cols, src.rows);
  cv::Mat dst = asMat(out);
  switch (src.channels()) {
    case 1:
      cv::cvtColor(src, dst, cv::COLOR_GRAY2RGB);
      break;
    case 4:
      cv::cvtColor(src, dst, cv::COLOR_BGRA2RGB);
      break;
    default:
      cv::cvtColor(src, dst, cv::COLOR_BGR2RGB);
      break;
  }
}

std::shared_ptr<Image> imageFromMat(const cv::Mat& mat) {
  auto image = std::make_shared<Image>();
  imageFromMat(mat, *image);
  return image;
}

cv::Mat bgrFromImage(const Image& image) {
  cv::Mat bgr;
  cv::cvtColor(asMat(image), bgr, cv::COLOR_RGB2BGR);
  return bgr;
}

}  // namespace convolab::opencv
