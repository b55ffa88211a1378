// SPDX-License-Identifier: MIT
// The virtual camera's formats on a photo (issue 34.12): 2×2 blocks of one colour (frame_conversion_test.cpp)
// hide chroma and luma sub-sampling mistakes, since every pixel of a block has the same chroma. Here each
// format's bytes are checked against BT.601 limited range computed in double: Y pixel by pixel, U and V over
// each pair (YUY2) or each 2×2 block (I420), and the RGB formats byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "bt601.hpp"
#include "cv/mat_adapter.hpp"
#include "pipewire/frame_conversion.hpp"

namespace convolab::pipewire {
namespace {

// A 130×90 crop of astronaut.png (the suit's badges and the flag: colour edges everywhere). 130: RGB's and
// I420's chroma rows are padded (390 → 392 and 65 → 68 bytes).
Image photoCrop() {
  const cv::Mat bgr = cv::imread(CONVOLAB_TEST_DATA "/astronaut.png", cv::IMREAD_COLOR);
  if (bgr.empty()) return {};
  Image image;
  opencv::imageFromMat(bgr(cv::Rect(30, 300, 130, 90)), image);  // BGR → RGB
  return image;
}

const std::uint8_t* pixel(const Image& image, int x, int y) {
  return image.pixels.data() + static_cast<std::size_t>(y) * image.stride + static_cast<std::size_t>(x) * 3;
}

TEST(FrameConversionPhoto, TheCropHasDetailInItsChroma) {
  const Image photo = photoCrop();
  ASSERT_EQ(photo.width, 130) << "tests/data/astronaut.png";
  // What makes the test worth having: neighbours differ in chroma (else averaging a pair were not checked).
  int differing = 0;
  for (int y = 0; y < photo.height; ++y)
    for (int x = 0; x + 1 < photo.width; x += 2) {
      const auto a = yuv601(pixel(photo, x, y)), b = yuv601(pixel(photo, x + 1, y));
      differing += std::max(std::abs(a[1] - b[1]), std::abs(a[2] - b[2])) > 3;
    }
  EXPECT_GT(differing, photo.width * photo.height / 2 / 10) << "pairs whose U or V differ by more than 3";
}

TEST(FrameConversionPhoto, Yuy2IsEachPixelsLumaAndEachPairsMeanChroma) {
  const Image photo = photoCrop();
  ASSERT_EQ(photo.width, 130);
  const FrameLayout layout = frameLayout(VideoFormat::YUY2, photo.width, photo.height);
  std::vector<std::uint8_t> bytes(layout.size);
  convertFrame(photo.view(), VideoFormat::YUY2, bytes.data());
  double worstY = 0, worstChroma = 0;
  for (int y = 0; y < photo.height; ++y)
    for (int x = 0; x + 1 < photo.width; x += 2) {
      const std::uint8_t* out = bytes.data() + y * layout.stride + x * 2;  // Y0 U Y1 V
      const auto a = yuv601(pixel(photo, x, y)), b = yuv601(pixel(photo, x + 1, y));
      worstY = std::max({worstY, std::abs(out[0] - a[0]), std::abs(out[2] - b[0])});
      worstChroma =
          std::max({worstChroma, std::abs(out[1] - (a[1] + b[1]) / 2), std::abs(out[3] - (a[2] + b[2]) / 2)});
    }
  EXPECT_LE(worstY, 1.0) << "luma of each pixel";
  EXPECT_LE(worstChroma, 1.0) << "U and V: the mean of the pair's";
}

// I420: each pixel's Y and each 2×2 block's mean U and V, on the padded planes the camera sends: a plane in
// the wrong place, U and V swapped or a stride mistake shows at once on a photo. (OpenCV 4.6's
// COLOR_RGB2YUV_I420, which the virtual camera used, takes each block's U and V from its top-left pixel: up
// to 27 levels from the block's mean on this crop; the property records how far that is.)
TEST(FrameConversionPhoto, I420IsEachPixelsLumaAndEachBlocksMeanChroma) {
  const Image photo = photoCrop();
  ASSERT_EQ(photo.width, 130);
  const FrameLayout layout = frameLayout(VideoFormat::I420, photo.width, photo.height);
  std::vector<std::uint8_t> bytes(layout.size);
  convertFrame(photo.view(), VideoFormat::I420, bytes.data());
  const std::uint8_t* uPlane = bytes.data() + layout.stride * photo.height;
  const std::uint8_t* vPlane = uPlane + layout.chromaStride * (photo.height / 2);
  double worstY = 0, worstChroma = 0, topLeftFromTheMean = 0;
  for (int y = 0; y < photo.height; ++y)
    for (int x = 0; x < photo.width; ++x)
      worstY = std::max(worstY, std::abs(bytes[y * layout.stride + x] - yuv601(pixel(photo, x, y))[0]));
  for (int by = 0; by < photo.height / 2; ++by)
    for (int bx = 0; bx < photo.width / 2; ++bx) {
      const double u = uPlane[by * layout.chromaStride + bx], v = vPlane[by * layout.chromaStride + bx];
      double meanU = 0, meanV = 0;
      for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx) {
          const auto c = yuv601(pixel(photo, 2 * bx + dx, 2 * by + dy));
          meanU += c[1] / 4, meanV += c[2] / 4;
        }
      worstChroma = std::max({worstChroma, std::abs(u - meanU), std::abs(v - meanV)});
      const auto topLeft = yuv601(pixel(photo, 2 * bx, 2 * by));
      topLeftFromTheMean =
          std::max({topLeftFromTheMean, std::abs(topLeft[1] - meanU), std::abs(topLeft[2] - meanV)});
    }
  EXPECT_LE(worstY, 1.0) << "luma of each pixel";
  EXPECT_LE(worstChroma, 1.0) << "U and V: the mean of the block's";
  EXPECT_GT(topLeftFromTheMean, 10.0)
      << "the crop's blocks differ in chroma (else the mean were not checked)";
  RecordProperty("i420_top_left_from_block_mean", std::to_string(topLeftFromTheMean));
}

TEST(FrameConversionPhoto, RgbFormatsAreThePhotoByteForByteAndComeBack) {
  const Image photo = photoCrop();
  ASSERT_EQ(photo.width, 130);
  for (VideoFormat format : {VideoFormat::RGB, VideoFormat::BGRx, VideoFormat::RGBx}) {
    const FrameLayout layout = frameLayout(format, photo.width, photo.height);
    std::vector<std::uint8_t> bytes(layout.size);
    convertFrame(photo.view(), format, bytes.data());
    const int step = format == VideoFormat::RGB ? 3 : 4;
    const bool bgr = format == VideoFormat::BGRx;
    int wrong = 0;
    for (int y = 0; y < photo.height; ++y)
      for (int x = 0; x < photo.width; ++x)
        for (int c = 0; c < 3; ++c)
          wrong += bytes[y * layout.stride + x * step + (bgr ? 2 - c : c)] != pixel(photo, x, y)[c];
    EXPECT_EQ(wrong, 0) << formatName(format);
    Image back(photo.width, photo.height);
    ASSERT_TRUE(convertToRgb(bytes.data(), bytes.size(), layout.stride, format, back)) << formatName(format);
    EXPECT_EQ(cv::norm(opencv::asMat(back), opencv::asMat(photo), cv::NORM_INF), 0) << formatName(format);
  }
}

}  // namespace
}  // namespace convolab::pipewire
