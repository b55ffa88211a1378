// SPDX-License-Identifier: MIT
// Large kernels against cv::filter2D per channel (the definition we promise): fft and the direct strategy
// that builds one program for every K (dynamic), K 31 and 63, every border, odd frames smaller and larger
// than the kernel.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "convolab/engine.hpp"
#include "convolab/registry.hpp"
#include "cv/filter2d.hpp"
#include "cv/mat_adapter.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

/// cv::filter2D per channel on a copyMakeBorder'ed plane (it has all five modes and the per-channel
/// constant, where filter2D has no wrap), then the crop.
Image filter2dPerChannel(const Image& in, const FilterSet& f) {
  const int r = f.radius();
  const std::array<cv::Mat, kChannels> kernels = opencv::channelKernels(f);
  std::vector<cv::Mat> planes;
  cv::split(opencv::asMat(in), planes);
  std::vector<cv::Mat> outs(3);
  for (size_t c = 0; c < 3; ++c) {
    cv::Mat padded, filtered;
    cv::copyMakeBorder(planes[c], padded, r, r, r, r, opencv::cvBorderType(f.border()),
                       cv::Scalar(f.borderValue()[c]));
    cv::filter2D(padded, filtered, -1, kernels[c], cv::Point(-1, -1), f.channel(static_cast<int>(c)).offset,
                 cv::BORDER_REFLECT_101);
    outs[c] = filtered(cv::Rect(r, r, in.width, in.height)).clone();
  }
  Image out(in.width, in.height);
  cv::Mat merged = opencv::asMat(out);
  cv::merge(outs, merged);
  return out;
}

class LargeKernelOpenCv : public ::testing::TestWithParam<std::string> {};

TEST_P(LargeKernelOpenCv, MatchesFilter2dPerChannel) {
  const std::string& name = GetParam();
  auto ctx = sharedContext();
  auto strategy = createStrategy(name);
  for (int k : {31, 63})
    for (BorderMode border : kAllBorderModes) {
      const FilterSet f =
          randomFilter(k, border, static_cast<std::uint32_t>(k * 3 + static_cast<int>(border)));
      for (auto [w, h] : {std::pair{23, 17}, {67, 41}}) {
        SCOPED_TRACE(name + " K=" + std::to_string(k) + " " + std::string(borderName(border)) + " " +
                     std::to_string(w) + "x" + std::to_string(h));
        const Image in = randomImage(w, h, static_cast<std::uint32_t>(w * k));
        const Image ours = runDirect(*strategy, *ctx, f, in);
        const Image cv = filter2dPerChannel(in, f);
        EXPECT_LE(maxAbsDiff(ours.view(), cv.view()), kTolerance)
            << firstMismatch(ours.view(), cv.view(), kTolerance);
      }
    }
}

INSTANTIATE_TEST_SUITE_P(Strategies, LargeKernelOpenCv, ::testing::Values("fft", "dynamic"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace convolab::test
