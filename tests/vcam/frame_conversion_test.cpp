// SPDX-License-Identifier: MIT
// Each format's bytes, converted back with OpenCV's own inverse, give the frame again (no PipeWire needed).
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>
#include <random>

#include "cv/mat_adapter.hpp"
#include "vcam/frame_conversion.hpp"

namespace convolab::vcam {
namespace {

// Random colours, one per 2×2 block: chroma subsampling loses nothing, so what is left is rounding.
Image blockFrame(int w, int h) {
  Image image(w, h);
  std::mt19937 random(7);
  for (int y = 0; y < h; y += 2)
    for (int x = 0; x < w; x += 2) {
      const std::uint8_t c[3] = {static_cast<std::uint8_t>(random()), static_cast<std::uint8_t>(random()),
                                 static_cast<std::uint8_t>(random())};
      for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx)
          std::copy(c, c + 3, image.pixels.data() + (y + dy) * image.stride + (x + dx) * 3);
    }
  return image;
}

double worstDifference(const cv::Mat& a, const cv::Mat& b) {
  return cv::norm(a, b, cv::NORM_INF);
}

TEST(FrameConversionTest, EveryFormatConvertsBackToTheFrame) {
  const int w = 66, h = 40;  // 66: rows of RGB and of I420's chroma are padded to 4 bytes
  const Image frame = blockFrame(w, h);
  const cv::Mat rgb = opencv::asMat(frame);
  for (auto [format, tolerance] : {std::pair{VideoFormat::RGB, 0.0}, std::pair{VideoFormat::BGRx, 0.0},
                                   std::pair{VideoFormat::YUY2, 3.0}, std::pair{VideoFormat::I420, 3.0}}) {
    const FrameLayout layout = frameLayout(format, w, h);
    std::vector<std::uint8_t> bytes(layout.size);
    convertFrame(frame.view(), format, bytes.data());
    cv::Mat back;
    if (format == VideoFormat::RGB) {
      back = cv::Mat(h, w, CV_8UC3, bytes.data(), layout.stride).clone();
    } else if (format == VideoFormat::BGRx) {
      cv::cvtColor(cv::Mat(h, w, CV_8UC4, bytes.data(), layout.stride), back, cv::COLOR_BGRA2RGB);
    } else if (format == VideoFormat::YUY2) {
      cv::cvtColor(cv::Mat(h, w, CV_8UC2, bytes.data(), layout.stride), back, cv::COLOR_YUV2RGB_YUY2);
    } else {  // unpad the planes into OpenCV's packed I420
      cv::Mat packed(h * 3 / 2, w, CV_8UC1);
      for (int y = 0; y < h; ++y) std::copy_n(bytes.data() + y * layout.stride, w, packed.ptr(y));
      for (int row = 0; row < h; ++row)
        std::copy_n(bytes.data() + layout.stride * h + row * layout.chromaStride, w / 2,
                    packed.ptr(h) + row * (w / 2));
      cv::cvtColor(packed, back, cv::COLOR_YUV2RGB_I420);
    }
    EXPECT_LE(worstDifference(back, rgb), tolerance) << formatName(format);
  }
}

TEST(FrameConversionTest, OddSizesOfferOnlyRgbFormats) {
  EXPECT_EQ(formatsFor(65, 40), (std::vector{VideoFormat::RGB, VideoFormat::BGRx}));
  EXPECT_EQ(formatsFor(64, 40).front(), VideoFormat::YUY2);
}

}  // namespace
}  // namespace convolab::vcam
