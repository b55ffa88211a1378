// SPDX-License-Identifier: MIT
// borderInterpolate against OpenCV's documented pictures, including images smaller than the radius.
#include <gtest/gtest.h>

#include "convolab/border.hpp"

namespace convolab {
namespace {

// Positions -3..6 of a 4-pixel row "abcd" (indices 0..3), as in the cv::BorderTypes pictures.
std::string row(BorderMode mode) {
  std::string s;
  for (int p = -3; p <= 6; ++p) {
    const int i = borderInterpolate(p, 4, mode);
    s += i < 0 ? 'v' : static_cast<char>('a' + i);
  }
  return s;
}

TEST(Border, MatchesOpenCvPictures) {
  EXPECT_EQ(row(BorderMode::Replicate), "aaaabcdddd");
  EXPECT_EQ(row(BorderMode::Reflect), "cbaabcddcb");
  EXPECT_EQ(row(BorderMode::Reflect101), "dcbabcdcba");
  EXPECT_EQ(row(BorderMode::Wrap), "bcdabcdabc");
  EXPECT_EQ(row(BorderMode::Constant), "vvvabcdvvv");
}

TEST(Border, TinyImagesStayInRange) {
  for (BorderMode m : kAllBorderModes)
    for (int len = 1; len <= 3; ++len)
      for (int p = -20; p <= 20; ++p) {
        const int i = borderInterpolate(p, len, m);
        if (m == BorderMode::Constant && (p < 0 || p >= len))
          EXPECT_EQ(i, -1);
        else
          EXPECT_TRUE(i >= 0 && i < len) << borderName(m) << " p=" << p << " len=" << len << " -> " << i;
      }
  // Values OpenCV's cv::borderInterpolate gives for a 2-pixel row.
  EXPECT_EQ(borderInterpolate(-3, 2, BorderMode::Reflect101), 1);
  EXPECT_EQ(borderInterpolate(-2, 2, BorderMode::Reflect101), 0);
  EXPECT_EQ(borderInterpolate(-3, 2, BorderMode::Reflect), 1);
  EXPECT_EQ(borderInterpolate(5, 2, BorderMode::Wrap), 1);
  EXPECT_EQ(borderInterpolate(-7, 1, BorderMode::Reflect101), 0);
}

TEST(Border, NamesRoundTrip) {
  for (BorderMode m : kAllBorderModes) EXPECT_EQ(parseBorder(borderName(m)), m);
  EXPECT_FALSE(parseBorder("mirror").has_value());
}

}  // namespace
}  // namespace convolab
