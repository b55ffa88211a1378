// SPDX-License-Identifier: MIT
// The Mat adapter: headers over images and views (no copy, the row stride kept), and BGR ↔ RGB conversions.
#include "cv/mat_adapter.hpp"

#include <gtest/gtest.h>

namespace convolab::opencv {
namespace {

TEST(MatAdapter, AsMatIsAViewWithTheStride) {
  Image image(5, 3, 5 * 3 + 4);  // padded rows
  cv::Mat m = asMat(image);
  EXPECT_EQ(m.data, image.pixels.data());
  EXPECT_EQ(m.step[0], image.stride);
  EXPECT_EQ(m.type(), CV_8UC3);
  m.at<cv::Vec3b>(2, 4) = cv::Vec3b(1, 2, 3);
  EXPECT_EQ(image.view().row(2)[12], 1);
  EXPECT_EQ(image.view().row(2)[14], 3);
  const ImageView view = image.view();
  EXPECT_EQ(asMat(view).data, image.pixels.data());
  EXPECT_EQ(asMat(image.mutableView()).step[0], image.stride);
}

TEST(MatAdapter, BgrGreyAndSixteenBitBecomeRgb) {
  Image out;
  imageFromMat(cv::Mat(2, 3, CV_8UC3, cv::Scalar(10, 20, 30)), out);  // B, G, R
  ASSERT_EQ(out.width, 3);
  ASSERT_EQ(out.height, 2);
  EXPECT_EQ(out.view().row(1)[0], 30);
  EXPECT_EQ(out.view().row(1)[2], 10);
  const std::uint8_t* before = out.pixels.data();
  imageFromMat(cv::Mat(2, 3, CV_8UC1, cv::Scalar(77)), out);  // same size: the buffer is reused
  EXPECT_EQ(out.pixels.data(), before);
  EXPECT_EQ(out.view().row(0)[1], 77);
  const auto wide = imageFromMat(cv::Mat(1, 1, CV_16UC3, cv::Scalar(256 * 5, 256 * 6, 256 * 7)));
  EXPECT_EQ(wide->view().row(0)[0], 7);
  EXPECT_EQ(wide->view().row(0)[2], 5);
  const auto rgba = imageFromMat(cv::Mat(1, 1, CV_8UC4, cv::Scalar(1, 2, 3, 4)));
  EXPECT_EQ(rgba->view().row(0)[0], 3);
}

TEST(MatAdapter, BgrFromImageSwapsBack) {
  Image image(2, 1);
  image.pixels = {1, 2, 3, 4, 5, 6};
  const cv::Mat bgr = bgrFromImage(image);
  EXPECT_EQ(bgr.at<cv::Vec3b>(0, 1), cv::Vec3b(6, 5, 4));
  EXPECT_NE(bgr.data, image.pixels.data());
}

}  // namespace
}  // namespace convolab::opencv
