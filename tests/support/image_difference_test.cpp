// SPDX-License-Identifier: MIT
// The tests' one image difference: it finds every difference it should (a helper that compared nothing would
// let every test that uses it pass), never reads padding, and keeps its one convention for unequal sizes.
#include <gtest/gtest.h>

#include <vector>

#include "image_difference.hpp"
#include "mat_difference.hpp"

namespace convolab::test {
namespace {

Image gradient(int w, int h, std::size_t stride = 0) {
  Image image(w, h, stride);
  for (std::size_t i = 0; i < image.pixels.size(); ++i) image.pixels[i] = 0xEE;  // padding: never compared
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w * kBytesPerPixel; ++x) image.mutableView().row(y)[x] = std::uint8_t(x * 7 + y * 13);
  return image;
}

TEST(ImageDifference, EqualImagesDifferByNothingWhateverTheirStride) {
  const Image a = gradient(5, 4), b = gradient(5, 4, 5 * 3 + 7);
  EXPECT_EQ(maxAbsDiff(a, b), 0);
  EXPECT_EQ(meanAbsDiff(a, b), 0);
  EXPECT_EQ(firstMismatch(a.view(), b.view(), 0), "");
}

TEST(ImageDifference, FindsOneChannelValueAnywhere) {
  const Image a = gradient(5, 4);
  for (int y : {0, 3})
    for (int x : {0, 14}) {  // the first and the last byte of a row: no edge is skipped
      Image b = a;
      b.mutableView().row(y)[x] += 7;
      EXPECT_EQ(maxAbsDiff(a, b), 7) << x << "," << y;
      EXPECT_EQ(maxAbsDiff(b, a), 7) << "either way round";
      EXPECT_DOUBLE_EQ(meanAbsDiff(a, b), 7.0 / (5 * 4 * 3));
      EXPECT_EQ(firstMismatch(b.view(), a.view(), 7), "");
      EXPECT_NE(firstMismatch(b.view(), a.view(), 6), "");
    }
  Image b = a;
  b.mutableView().row(1)[2 * 3 + 1] = 0;
  EXPECT_EQ(firstMismatch(b.view(), a.view(), 0),
            "x=2 y=1 c=1 ours=0 ref=" + std::to_string(a.view().row(1)[7]));
}

TEST(ImageDifference, UnequalSizesDifferMoreThanAnyTwoBytes) {
  const Image a = gradient(5, 4);
  for (const Image& b : {gradient(4, 4), gradient(5, 3), Image()}) {
    EXPECT_EQ(maxAbsDiff(a, b), kSizesDiffer);
    EXPECT_EQ(maxAbsDiff(b, a), kSizesDiffer);
    EXPECT_EQ(meanAbsDiff(a, b), kSizesDiffer);
    EXPECT_GT(maxAbsDiff(a, b), 255) << "a tolerance check fails, a 'differs' check holds";
    EXPECT_EQ(firstMismatch(a.view(), b.view(), 255).rfind("sizes differ: 5x4 vs ", 0), 0u);
  }
  EXPECT_EQ(maxAbsDiff(Image(), Image()), 0);
  EXPECT_EQ(meanAbsDiff(Image(), Image()), 0);
}

TEST(ImageDifference, ByteRuns) {
  const std::vector<std::uint8_t> a{1, 2, 3, 250}, b{1, 2, 3, 0}, shorter{1, 2, 3};
  EXPECT_EQ(maxAbsDiff(a, a), 0);
  EXPECT_EQ(maxAbsDiff(a, b), 250);
  EXPECT_EQ(maxAbsDiff(a, shorter), kSizesDiffer);
  EXPECT_EQ(maxAbsDiff(shorter, a), kSizesDiffer);
}

TEST(MatDifference, ViewsSubMatricesAndRefusesOtherTypes) {
  cv::Mat m(6, 8, CV_8UC3, cv::Scalar(10, 20, 30));
  cv::Mat other = m.clone();
  other.at<cv::Vec3b>(5, 7)[2] = 45;
  EXPECT_EQ(maxAbsDiff(m, other), 15);
  EXPECT_EQ(maxAbsDiff(m(cv::Rect(0, 0, 7, 6)), other(cv::Rect(0, 0, 7, 6))), 0);  // at the parent's step
  EXPECT_EQ(maxAbsDiff(m.col(7), other.col(7)), 15);
  EXPECT_EQ(maxAbsDiff(m, cv::Mat()), kSizesDiffer);  // a failed imread
  EXPECT_EQ(maxAbsDiff(m, cv::Mat(m.t())), kSizesDiffer);
  EXPECT_THROW(viewOf(cv::Mat(2, 2, CV_8UC1)), std::invalid_argument);
}

}  // namespace
}  // namespace convolab::test
