// SPDX-License-Identifier: MIT
// The image header reader: every known format's declared size, without decoding; nothing else is guessed.
#include "cv/image_header.hpp"

#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <vector>

#include "cv_test_support.hpp"

namespace convolab::opencv {
namespace {

std::string_view asBytes(const std::vector<uchar>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size()};
}

TEST(ImageHeader, KnowsEachFormatOpenCvWrites) {
  const cv::Mat bgr(23, 37, CV_8UC3, cv::Scalar(10, 20, 30));
  for (const char* ext : {".png", ".jpg", ".bmp", ".tiff", ".webp", ".ppm", ".pgm"}) {
    std::vector<uchar> bytes;
    cv::Mat img = bgr;
    if (std::string(ext) == ".pgm") cv::extractChannel(bgr, img, 0);
    ASSERT_TRUE(cv::imencode(ext, img, bytes)) << ext;
    const auto h = readImageHeaderBytes(asBytes(bytes));
    ASSERT_TRUE(h.has_value()) << ext;
    EXPECT_EQ(h->width, 37) << ext;
    EXPECT_EQ(h->height, 23) << ext;
  }
}

TEST(ImageHeader, ReadsGif) {
  // OpenCV 4.6 reads no GIF, so a huge one must be refused from its header (convolab-cli lists GIF).
  const auto h = readImageHeaderBytes(test::gifHeader(37, 23));
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->width, 37);
  EXPECT_EQ(h->height, 23);
  EXPECT_STREQ(h->format, "GIF");
  const auto h87 = readImageHeaderBytes(std::string("GIF87a\x00\x01\x02\x00", 10));
  ASSERT_TRUE(h87.has_value());
  EXPECT_EQ(h87->width, 256);
  EXPECT_EQ(h87->height, 2);
}

TEST(ImageHeader, UnknownShortOrEmptyIsNotGuessed) {
  EXPECT_FALSE(readImageHeaderBytes("these are my notes, not a picture\n").has_value());
  EXPECT_FALSE(readImageHeaderBytes("GIF89a\x25").has_value());            // too short for a size
  EXPECT_FALSE(readImageHeaderBytes(test::gifHeader(0, 23)).has_value());  // no pixels declared
  EXPECT_FALSE(readImageHeaderBytes("").has_value());
  EXPECT_FALSE(readImageHeader(std::filesystem::path("/dev/zero")).has_value());  // never opened
}

TEST(ImageHeader, ReadsOnlyTheHeaderOfAFile) {
  const test::ScratchDir dir;
  test::writeBytes(dir / "huge.png", test::hugeHeaderPng(30000, 20000));
  const auto h = readImageHeader(dir / "huge.png");
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->width, 30000);
  EXPECT_EQ(h->height, 20000);
  EXPECT_EQ(h->pixels(), 600'000'000);
  EXPECT_EQ(describeImageSize(30000, 30000), "30000×30000 (900 MP)");
  EXPECT_FALSE(readImageHeader(dir / "missing.png").has_value());
}

}  // namespace
}  // namespace convolab::opencv
