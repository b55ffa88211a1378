// SPDX-License-Identifier: MIT
// Real photographs: the reference against OpenCV's filter2D (the definition we promise), and every
// strategy against the reference.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "convolab/engine.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "cv/filter2d.hpp"
#include "cv/image_codec.hpp"
#include "cv/mat_adapter.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

const char* const kPhotos[] = {"coffee.png", "astronaut.png", "chelsea.png"};

Image loadRgb(const std::string& file) {
  return opencv::loadImage(std::string(CONVOLAB_TEST_DATA_DIR) + "/" + file);
}

/// cv::filter2D per channel. filter2D has no BORDER_WRAP, so every mode goes through copyMakeBorder
/// (which has all five, with the per-channel constant) and filter2D on the padded image, then a crop.
Image opencvFilter(const Image& in, const FilterSet& f) {
  const int r = f.radius();
  const std::array<cv::Mat, kChannels> kernels = opencv::channelKernels(f);
  std::vector<cv::Mat> planes;
  cv::split(opencv::asMat(in), planes);
  std::vector<cv::Mat> outs(3);
  for (int c = 0; c < 3; ++c) {
    cv::Mat padded;
    cv::copyMakeBorder(planes[static_cast<size_t>(c)], padded, r, r, r, r, opencv::cvBorderType(f.border()),
                       cv::Scalar(f.borderValue()[static_cast<size_t>(c)]));
    cv::Mat filtered;
    cv::filter2D(padded, filtered, -1, kernels[static_cast<size_t>(c)], cv::Point(-1, -1),
                 f.channel(c).offset, cv::BORDER_REFLECT_101);
    outs[static_cast<size_t>(c)] = filtered(cv::Rect(r, r, in.width, in.height)).clone();
  }
  Image out(in.width, in.height);
  cv::Mat merged = opencv::asMat(out);
  cv::merge(outs, merged);
  return out;
}

TEST(ReferenceVsOpenCv, PhotosEveryBorderSeveralSizes) {
  for (const char* photo : kPhotos) {
    const Image img = loadRgb(photo);
    for (BorderMode b : kAllBorderModes)
      for (int k : {3, 7, 15}) {
        const FilterSet f = randomFilter(k, b, static_cast<std::uint32_t>(k + 100));
        Image ref(img.width, img.height);
        referenceConvolve(img.view(), ref.mutableView(), f);
        const Image cv = opencvFilter(img, f);
        EXPECT_LE(maxAbsDiff(ref.view(), cv.view()), kTolerance)
            << photo << " " << borderName(b) << " k" << k << ": "
            << firstMismatch(ref.view(), cv.view(), kTolerance);
      }
  }
}

TEST(ReferenceVsOpenCv, ImagesSmallerThanTheFilter) {
  for (auto [w, h] : {std::pair{1, 1}, {2, 3}, {3, 2}, {5, 4}})
    for (BorderMode b : kAllBorderModes) {
      const Image img = randomImage(w, h, static_cast<std::uint32_t>(w * 10 + h));
      const FilterSet f = randomFilter(15, b, 5);
      Image ref(w, h);
      referenceConvolve(img.view(), ref.mutableView(), f);
      EXPECT_LE(maxAbsDiff(ref.view(), opencvFilter(img, f).view()), kTolerance)
          << w << "x" << h << " " << borderName(b);
    }
}

class PhotoStrategies : public ::testing::TestWithParam<std::string> {};

/// A dense random filter, a rank-1 (Gaussian-like) one and a rank-2 one, so every strategy, including
/// separable and lowrank, meets at least one filter it accepts.
std::vector<FilterSet> photoFilters(BorderMode border) {
  std::vector<FilterSet> filters{randomFilter(7, border, 77)};
  const double g[] = {1, 6, 15, 20, 15, 6, 1}, d[] = {-1, -2, -1, 0, 1, 2, 1};
  ChannelFilter rank1{7, {}, 4096, 0}, rank2{7, {}, 64, 128};
  for (int j = 0; j < 7; ++j)
    for (int i = 0; i < 7; ++i) {
      rank1.matrix.push_back(g[j] * g[i]);
      rank2.matrix.push_back(g[j] * d[i] / 8 + d[j] * g[i] / 8);
    }
  filters.push_back(FilterSet::make({rank1, rank1, rank1}, border, {10, 20, 30}, "gaussian"));
  filters.push_back(FilterSet::make({rank2, rank1, rank2}, border, {0, 0, 0}, "rank2"));
  return filters;
}

TEST_P(PhotoStrategies, MatchReferenceOnPhotos) {
  auto ctx = sharedContext();
  std::vector<Image> photos;
  for (const char* photo : kPhotos) photos.push_back(loadRgb(photo));
  int tested = 0;
  for (size_t p = 0; p < photos.size(); ++p) {
    const Image& img = photos[p];
    for (BorderMode b : {BorderMode::Reflect101, BorderMode::Constant}) {
      for (const FilterSet& f : photoFilters(b)) {
        if (createStrategy(GetParam())->unsupportedReason(*ctx, f)) continue;
        Engine engine(ctx, GetParam());
        engine.setFilter(f);
        Image out(img.width, img.height), ref(img.width, img.height);
        engine.process(img.view(), out.mutableView());
        ASSERT_EQ(engine.activeStrategy().substr(0, GetParam().size()), GetParam());
        // auto measures on the first photo; the others (other sizes) reuse its choice per filter structure.
        if (GetParam() == kAutoStrategy && p == 0)
          for (const Image& other : photos)
            rememberAutoChoice(*ctx, f, engine.activeStrategyId(), other.width, other.height);
        referenceConvolve(img.view(), ref.mutableView(), f);
        EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
            << kPhotos[p] << " " << borderName(b) << " " << f.name();
        ++tested;
      }
    }
  }
  if (tested == 0) GTEST_SKIP() << GetParam() << " accepts none of the photo filters";
}

INSTANTIATE_TEST_SUITE_P(All, PhotoStrategies, ::testing::ValuesIn(strategyNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace convolab::test
