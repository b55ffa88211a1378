// SPDX-License-Identifier: MIT
// Each format's bytes, converted back with OpenCV's own inverse, give the frame again (no PipeWire needed).
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <random>

#include "cv/mat_adapter.hpp"
#include "mat_difference.hpp"
#include "pipewire/frame_conversion.hpp"

namespace convolab::pipewire {
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

using convolab::test::maxAbsDiff;  // tests/support/mat_difference.hpp

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
    EXPECT_LE(maxAbsDiff(back, rgb), tolerance) << formatName(format);
  }
}

// What a PipeWire camera delivers, back to RGB through the one function the camera source uses; a buffer
// too short for the negotiated size (one sent for the old size while renegotiating) is refused, not read
// past its end.
TEST(FrameConversionTest, CameraBytesConvertBackAndShortBuffersAreRefused) {
  const int w = 66, h = 40;
  const Image frame = blockFrame(w, h);
  for (auto [format, tolerance] : {std::pair{VideoFormat::RGB, 0.0}, std::pair{VideoFormat::BGRx, 0.0},
                                   std::pair{VideoFormat::RGBx, 0.0}, std::pair{VideoFormat::YUY2, 3.0},
                                   std::pair{VideoFormat::I420, 3.0}}) {
    const FrameLayout layout = frameLayout(format, w, h);
    std::vector<std::uint8_t> bytes(layout.size);
    convertFrame(frame.view(), format, bytes.data());
    Image back(w, h);
    ASSERT_TRUE(convertToRgb(bytes.data(), bytes.size(), layout.stride, format, back)) << formatName(format);
    EXPECT_LE(maxAbsDiff(opencv::asMat(back), opencv::asMat(frame)), tolerance) << formatName(format);
    Image untouched(w, h);
    EXPECT_FALSE(convertToRgb(bytes.data(), bytes.size() - layout.stride, layout.stride, format, untouched))
        << formatName(format);
    EXPECT_EQ(cv::countNonZero(opencv::asMat(untouched).reshape(1)), 0) << formatName(format);
  }
}

// Motion JPEG (what webcams send at their larger sizes) decodes to the frame within JPEG's loss; a JPEG of
// another size than the negotiated one is refused.
TEST(FrameConversionTest, MjpgDecodesToTheFrameAndAnotherSizeIsRefused) {
  const int w = 64, h = 48;
  Image frame(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = frame.pixels.data() + y * frame.stride + x * 3;
      p[0] = static_cast<std::uint8_t>(x * 4), p[1] = static_cast<std::uint8_t>(y * 5), p[2] = 200;
    }
  cv::Mat bgr;
  cv::cvtColor(opencv::asMat(frame), bgr, cv::COLOR_RGB2BGR);
  std::vector<std::uint8_t> jpeg;
  ASSERT_TRUE(cv::imencode(".jpg", bgr, jpeg, {cv::IMWRITE_JPEG_QUALITY, 95}));
  Image back(w, h);
  ASSERT_TRUE(convertToRgb(jpeg.data(), jpeg.size(), 0, VideoFormat::MJPG, back));
  EXPECT_LE(maxAbsDiff(opencv::asMat(back), opencv::asMat(frame)), 12.0);
  Image otherSize(w * 2, h);
  EXPECT_FALSE(convertToRgb(jpeg.data(), jpeg.size(), 0, VideoFormat::MJPG, otherSize));
  Image garbage(w, h);
  EXPECT_FALSE(convertToRgb(jpeg.data() + 100, jpeg.size() - 100, 0, VideoFormat::MJPG, garbage));
  Image cutShort(w, h);  // libjpeg would make up the missing rows
  EXPECT_FALSE(convertToRgb(jpeg.data(), jpeg.size() * 2 / 3, 0, VideoFormat::MJPG, cutShort));
}

TEST(FrameConversionTest, OddSizesOfferOnlyRgbFormats) {
  EXPECT_EQ(formatsFor(65, 40), (std::vector{VideoFormat::RGB, VideoFormat::BGRx}));
  EXPECT_EQ(formatsFor(64, 40).front(), VideoFormat::YUY2);
}

}  // namespace
}  // namespace convolab::pipewire
