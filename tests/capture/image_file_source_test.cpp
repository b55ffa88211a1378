// SPDX-License-Identifier: MIT
// The still-image source: decoded once as RGB, the same pixels re-delivered, size said from the header before
// decoding, too-large images refused.
#include "capture/image_file_source.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <vector>

#include <opencv2/imgcodecs.hpp>

#include "cv_test_support.hpp"

namespace convolab::capture {
namespace {

using opencv::test::ScratchDir;

/// A `w`×`h` PNG, blue in OpenCV's BGR order, with one red pixel at (1, 0).
std::filesystem::path writeBluePng(const ScratchDir& dir, int w, int h) {
  cv::Mat bgr(h, w, CV_8UC3, cv::Scalar(255, 0, 0));
  bgr.at<cv::Vec3b>(0, 1) = {0, 0, 255};
  const auto path = dir / "still.png";
  EXPECT_TRUE(cv::imwrite(path.string(), bgr));
  return path;
}

TEST(ImageFileSource, DeliversTheImageAsRgbAgainAndAgain) {
  ScratchDir dir;
  ImageFileSource source(writeBluePng(dir, 5, 3));
  EXPECT_EQ(source.description(), "still.png");
  source.open();
  EXPECT_EQ(source.deliveredMode(), "5×3 still image");
  Frame a, b;
  ASSERT_TRUE(source.read(a));
  ASSERT_TRUE(source.read(b));
  ASSERT_EQ(a.image->width, 5);
  ASSERT_EQ(a.image->height, 3);
  const std::uint8_t* row = a.image->view().row(0);
  EXPECT_EQ((std::array{row[0], row[1], row[2]}), (std::array<std::uint8_t, 3>{0, 0, 255}));  // blue: RGB
  EXPECT_EQ((std::array{row[3], row[4], row[5]}), (std::array<std::uint8_t, 3>{255, 0, 0}));  // red
  EXPECT_EQ(a.image, b.image);  // shared, not copied
  EXPECT_EQ(b.index, a.index + 1);
}

TEST(ImageFileSource, SaysItsSizeFromTheHeaderBeforeDecoding) {
  ScratchDir dir;
  const auto path = dir / "huge.png";
  opencv::test::writeBytes(path, opencv::test::hugeHeaderPng(30000, 30000));
  ImageFileSource source(path, 100'000'000);
  EXPECT_EQ(source.loadingDetail(), "30000×30000 (900 MP)");
  EXPECT_THROW(source.open(), SourceError);  // refused from the header, never decoded
}

TEST(ImageFileSource, MissingOrUndecodableFilesFailToOpen) {
  ScratchDir dir;
  EXPECT_THROW(ImageFileSource(dir / "absent.png").open(), SourceError);
  const auto junk = dir / "junk.png";
  opencv::test::writeBytes(junk, "not an image");
  EXPECT_THROW(ImageFileSource(junk).open(), SourceError);
}

TEST(ImageFileSource, DecodedImageNeedsNoFile) {
  ImageFileSource source(Image(4, 4), "sample (bundled)");
  EXPECT_EQ(source.description(), "sample (bundled)");
  EXPECT_EQ(source.loadingDetail(), "");
  source.open();
  Frame frame;
  ASSERT_TRUE(source.read(frame));
  EXPECT_EQ(frame.image->width, 4);
}

// A damaged still is shown as far as it decodes, and the status bar (the delivered mode) says what was lost.
TEST(ImageFileSource, ADamagedJpegSaysHowManyRowsWereDecoded) {
  ScratchDir dir;
  cv::Mat bgr(240, 320, CV_8UC3);
  cv::randu(bgr, 0, 255);  // noise: a JPEG whose data spreads over all rows
  std::vector<unsigned char> jpeg;
  ASSERT_TRUE(cv::imencode(".jpg", bgr, jpeg));
  jpeg.resize(jpeg.size() * 4 / 10);
  const auto path = dir / "cut.jpg";
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(jpeg.data()), static_cast<std::streamsize>(jpeg.size()));
  }
  ImageFileSource source(path);
  source.open();
  const std::string mode = source.deliveredMode();
  EXPECT_EQ(mode.rfind("320×240 still image · image is damaged: ", 0), 0u) << mode;
  EXPECT_NE(mode.find(" of 240 rows decoded"), std::string::npos) << mode;
}

}  // namespace
}  // namespace convolab::capture
