// SPDX-License-Identifier: MIT
// Each format's bytes, converted back with OpenCV's own inverse, give the frame again (no PipeWire needed);
// I420 against BT.601 in double at even and odd sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <random>

#include "bt601.hpp"
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

// Expected chroma (yuv601, bt601.hpp): U and V of a 2×2 block (or the partial block of an odd side) are the
// mean of its pixels' U and V.

struct I420Planes {
  FrameLayout layout;
  std::vector<std::uint8_t> bytes;
  const std::uint8_t* u() const { return bytes.data() + layout.stride * height; }
  const std::uint8_t* v() const { return u() + layout.chromaStride * ((height + 1) / 2); }
  int height = 0;
};

I420Planes toI420(const Image& frame) {
  I420Planes p{frameLayout(VideoFormat::I420, frame.width, frame.height), {}, frame.height};
  p.bytes.assign(p.layout.size + 16, 0xAB);  // 16 guard bytes: nothing is written past the layout
  convertFrame(frame.view(), VideoFormat::I420, p.bytes.data());
  for (std::size_t i = p.layout.size; i < p.bytes.size(); ++i) EXPECT_EQ(p.bytes[i], 0xAB) << "past the end";
  return p;
}

// Largest distance of each Y and each block's U and V from the reference, over a random frame.
std::array<double, 2> worstFromReference(const Image& frame, const I420Planes& p) {
  const int w = frame.width, h = frame.height;
  const auto at = [&](int x, int y) { return frame.pixels.data() + y * frame.stride + x * 3; };
  double worstY = 0, worstChroma = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      worstY = std::max(worstY, std::abs(p.bytes[y * p.layout.stride + x] - yuv601(at(x, y))[0]));
  for (int by = 0; by < (h + 1) / 2; ++by)
    for (int bx = 0; bx < (w + 1) / 2; ++bx) {
      double u = 0, v = 0, n = 0;
      for (int y = 2 * by; y < std::min(h, 2 * by + 2); ++y)
        for (int x = 2 * bx; x < std::min(w, 2 * bx + 2); ++x) {
          const auto c = yuv601(at(x, y));
          u += c[1], v += c[2], ++n;
        }
      worstChroma = std::max({worstChroma, std::abs(p.u()[by * p.layout.chromaStride + bx] - u / n),
                              std::abs(p.v()[by * p.layout.chromaStride + bx] - v / n)});
    }
  return {worstY, worstChroma};
}

Image randomFrame(int w, int h, std::uint32_t seed) {
  Image image(w, h);
  std::mt19937 random(seed);
  for (auto& byte : image.pixels) byte = static_cast<std::uint8_t>(random());
  return image;
}

// Every pixel its own random colour (so every block's four chroma values differ), at even and odd sizes:
// each Y and each block's mean U and V within rounding of BT.601 in double; Y is OpenCV's bit for bit.
TEST(FrameConversionTest, I420IsEachPixelsLumaAndEachBlocksMeanChromaAtAnySize) {
  for (const auto [w, h] : {std::pair{66, 40}, std::pair{65, 41}, std::pair{1, 1}, std::pair{3, 2},
                            std::pair{2, 3}, std::pair{7, 7}, std::pair{130, 1}}) {
    const Image frame = randomFrame(w, h, static_cast<std::uint32_t>(w * 1000 + h));
    const I420Planes p = toI420(frame);
    EXPECT_EQ(p.layout.chromaStride % 4, 0u);
    EXPECT_GE(p.layout.chromaStride, static_cast<std::size_t>((w + 1) / 2));
    const auto [worstY, worstChroma] = worstFromReference(frame, p);
    EXPECT_LE(worstY, 1.0) << w << "x" << h;
    EXPECT_LE(worstChroma, 1.0) << w << "x" << h << ": U and V are the block's mean";
    if (w % 2 || h % 2) continue;
    cv::Mat packed;
    cv::cvtColor(opencv::asMat(frame), packed, cv::COLOR_RGB2YUV_I420);
    for (int y = 0; y < h; ++y)
      EXPECT_EQ(std::memcmp(packed.ptr(y), p.bytes.data() + y * p.layout.stride, w), 0) << "Y row " << y;
  }
}

// A 2×2 checker of red, green, blue and white: every block's mean chroma is grey (U = V = 128), where its
// top-left pixel's (red: U 90, V 240), which OpenCV's COLOR_RGB2YUV_I420 sends, is far from it.
TEST(FrameConversionTest, I420ChromaOfAColourCheckerIsItsMeanNotItsTopLeftPixel) {
  const std::uint8_t colours[2][2][3] = {{{255, 0, 0}, {0, 255, 0}}, {{0, 0, 255}, {255, 255, 255}}};
  for (const auto [w, h] : {std::pair{8, 6}, std::pair{9, 7}}) {
    Image frame(w, h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        std::copy_n(colours[y % 2][x % 2], 3, frame.pixels.data() + y * frame.stride + x * 3);
    const I420Planes p = toI420(frame);
    for (int by = 0; by < h / 2; ++by)
      for (int bx = 0; bx < w / 2; ++bx) {
        EXPECT_NEAR(p.u()[by * p.layout.chromaStride + bx], 128, 1)
            << w << "x" << h << " block " << bx << "," << by;
        EXPECT_NEAR(p.v()[by * p.layout.chromaStride + bx], 128, 1)
            << w << "x" << h << " block " << bx << "," << by;
      }
    if (w % 2 == 0) continue;
    // The odd column's blocks hold red over blue (U (90 + 240) / 2 = 165, V (240 + 110) / 2 = 175), the
    // odd row's red beside green (U 72, V 137), the corner red alone.
    const int cx = w / 2, cy = h / 2;
    const auto near = [](double a, double b) { return std::abs(a - b) <= 1.5; };
    EXPECT_PRED2(near, p.u()[0 * p.layout.chromaStride + cx],
                 (yuv601(colours[0][0])[1] + yuv601(colours[1][0])[1]) / 2);
    EXPECT_PRED2(near, p.v()[cy * p.layout.chromaStride + 0],
                 (yuv601(colours[0][0])[2] + yuv601(colours[0][1])[2]) / 2);
    EXPECT_PRED2(near, p.u()[cy * p.layout.chromaStride + cx], yuv601(colours[0][0])[1]);
    EXPECT_PRED2(near, p.v()[cy * p.layout.chromaStride + cx], yuv601(colours[0][0])[2]);
  }
}

TEST(FrameConversionTest, OddSizesOfferOnlyRgbFormats) {
  EXPECT_EQ(formatsFor(65, 40), (std::vector{VideoFormat::RGB, VideoFormat::BGRx}));
  EXPECT_EQ(formatsFor(64, 40).front(), VideoFormat::YUY2);
}

}  // namespace
}  // namespace convolab::pipewire
