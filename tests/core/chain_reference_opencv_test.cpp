// SPDX-License-Identifier: MIT
// The chain reference against OpenCV step by step (DESIGN §1): cv::filter2D per channel in double, rounded
// and saturated between steps; a magnitude step as cv::magnitude of the two unrounded results. Odd sizes,
// every border, chains of 2, 3 and 8 steps, K 3–15, magnitude and switched-off steps.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "convolab/reference.hpp"
#include "cv/filter2d.hpp"
#include "cv/mat_adapter.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

/// One filter's unrounded result per channel (CV_64F planes): copyMakeBorder (all five modes, the per-channel
/// constant) and cv::filter2D in double on the padded plane, cropped.
std::vector<cv::Mat> cvUnrounded(const cv::Mat& img, const FilterSet& f) {
  const int r = f.radius();
  std::vector<cv::Mat> planes, outs(3);
  cv::split(img, planes);
  for (int c = 0; c < 3; ++c) {
    const ChannelFilter& cf = f.channel(c);
    cv::Mat kernel(cf.size, cf.size, CV_64F);
    for (int j = 0; j < cf.size; ++j)
      for (int i = 0; i < cf.size; ++i) kernel.at<double>(j, i) = cf.weight(j, i);
    // Padded in double: a constant border value need not be a whole number (random filters' are not).
    cv::Mat plane, wide, filtered;
    planes[static_cast<size_t>(c)].convertTo(plane, CV_64F);
    cv::copyMakeBorder(plane, wide, r + 1, r + 1, r + 1, r + 1, opencv::cvBorderType(f.border()),
                       cv::Scalar(f.borderValue()[static_cast<size_t>(c)]));
    // Filtering a ROI (one pixel in) keeps filter2D off its DFT path (K ≥ 11 on whole images), whose ~1e-12
    // errors move exact .5 ties that power-of-two divisors make common.
    const cv::Mat roi = wide(cv::Rect(1, 1, wide.cols - 2, wide.rows - 2));
    cv::filter2D(roi, filtered, CV_64F, kernel, cv::Point(-1, -1), cf.offset, cv::BORDER_REFLECT_101);
    outs[static_cast<size_t>(c)] = filtered(cv::Rect(r, r, img.cols, img.rows)).clone();
  }
  return outs;
}

/// The chain done by OpenCV, step after step; each step's planes rounded and saturated (cvRound) into
/// CV_8UC3.
cv::Mat cvChain(const Image& in, const FilterChain& chain) {
  cv::Mat current = opencv::asMat(in).clone();
  for (const ChainStep& step : chain.enabledSteps()) {
    std::vector<cv::Mat> planes = cvUnrounded(current, step.filter);
    if (step.isMagnitude()) {
      const std::vector<cv::Mat> other = cvUnrounded(current, *step.other);
      for (size_t c = 0; c < 3; ++c) cv::magnitude(planes[c], other[c], planes[c]);
    }
    std::vector<cv::Mat> bytes(3);
    for (size_t c = 0; c < 3; ++c) planes[c].convertTo(bytes[c], CV_8U);
    cv::merge(bytes, current);
  }
  return current;
}

/// Channel values where the reference's chain and OpenCV's differ (and the largest difference).
std::pair<long, int> chainDifferences(const Image& in, const FilterChain& chain) {
  Image ref(in.width, in.height);
  referenceChain(in.view(), ref.mutableView(), chain);
  const cv::Mat want = cvChain(in, chain);
  const cv::Mat ours = opencv::asMat(ref);
  cv::Mat diff;
  cv::absdiff(ours, want, diff);
  double maxDiff = 0;
  cv::minMaxLoc(diff.reshape(1), nullptr, &maxDiff);
  return {static_cast<long>(cv::countNonZero(diff.reshape(1))), static_cast<int>(maxDiff)};
}

TEST(ChainReferenceVsOpenCv, ExactChainsAreEqualEverywhere) {
  for (const auto& ks : std::vector<std::vector<int>>{{3, 5}, {7, 3, 15}, {3, 5, 7, 9, 11, 13, 15, 3}})
    for (std::uint32_t seed : {1u, 2u, 3u, 4u, 5u}) {  // five seeds: every border on every step position
      const FilterChain chain = randomChain(ks, seed, /*exact=*/true);
      const Image in = randomImage(37, 23, seed);
      const auto [count, maxDiff] = chainDifferences(in, chain);
      EXPECT_EQ(count, 0) << ks.size() << " steps, seed " << seed << ", max difference " << maxDiff;
    }
}

TEST(ChainReferenceVsOpenCv, RandomChainsAgreeOnAlmostEveryPixel) {
  long values = 0, differ = 0;
  for (const auto& ks : std::vector<std::vector<int>>{{5, 3}, {3, 15, 7}, {3, 3, 5, 5, 7, 7, 9, 3}})
    for (std::uint32_t seed : {11u, 12u, 13u, 14u, 15u}) {
      const Image in = randomImage(41, 29, seed);
      differ += chainDifferences(in, randomChain(ks, seed, /*exact=*/false)).first;
      values += 41L * 29 * 3;
    }
  // Only a rounding tie of an intermediate (double vs double, other summation order) may differ: rare.
  EXPECT_LE(differ * 1000, values) << differ << " of " << values << " channel values differ";
}

TEST(ChainReferenceVsOpenCv, SmallImagesAndSingleStepsMatchTheOneFilterReference) {
  for (auto [w, h] : {std::pair{1, 1}, {2, 3}, {5, 4}}) {
    const Image in = randomImage(w, h, static_cast<std::uint32_t>(w * 10 + h));
    EXPECT_EQ(chainDifferences(in, randomChain({15, 7, 3}, 9, true)).first, 0) << w << "x" << h;
    const FilterSet f = exactFilter(7, BorderMode::Wrap, 3);
    Image one(w, h), chained(w, h);
    referenceConvolve(in.view(), one.mutableView(), f);
    referenceChain(in.view(), chained.mutableView(), FilterChain(f));
    EXPECT_EQ(maxAbsDiff(one.view(), chained.view()), 0);
  }
}

}  // namespace
}  // namespace convolab::test
