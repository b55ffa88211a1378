// SPDX-License-Identifier: MIT
// The custom OpenCL examples (resources/presets/custom, issue 36) on a photo against OpenCV computing the
// same picture: exact where every operation is exact in float (invert, threshold, posterise, the Sobel
// magnitude), ±1 where float and double may round a value differently (luma, gamma, sepia, vignette,
// unsharp).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "convolab/engine.hpp"
#include "convolab/filter_chain_io.hpp"
#include "cv/image_codec.hpp"
#include "cv/mat_adapter.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

const std::string kExamples = std::string(CONVOLAB_TEST_DATA_DIR) + "/../../resources/presets/custom/";

Image runExample(const std::string& name, const Image& in) {
  Engine engine(sharedContext(), "naive");
  engine.setFrameTime(0.0);
  engine.setChain(loadFilterChainFile(kExamples + name + ".json"));
  return convolve(engine, in);
}

/// An expected picture computed per pixel in double from the RGB input, saturated as cv::saturate_cast does.
Image perPixel(const Image& in, const std::function<cv::Vec3d(cv::Vec3d, int, int)>& f) {
  Image out(in.width, in.height);
  const cv::Mat src = opencv::asMat(in);
  cv::Mat dst = opencv::asMat(out);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      const cv::Vec3d v = f(cv::Vec3d(src.at<cv::Vec3b>(y, x)), x, y);
      dst.at<cv::Vec3b>(y, x) = cv::Vec3b(cv::saturate_cast<uchar>(v[0]), cv::saturate_cast<uchar>(v[1]),
                                          cv::saturate_cast<uchar>(v[2]));
    }
  return out;
}

Image fromMat(const cv::Mat& m) {
  Image out(m.cols, m.rows);
  m.copyTo(opencv::asMat(out));
  return out;
}

class CustomExamples : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_photo = new Image(opencv::loadImage(std::string(CONVOLAB_TEST_DATA_DIR) + "/coffee.png"));
  }
  static void TearDownTestSuite() { delete s_photo; }
  static const Image& photo() { return *s_photo; }
  static void expectClose(const std::string& example, const Image& expected, int tolerance) {
    const Image ours = runExample(example, photo());
    EXPECT_LE(maxAbsDiff(ours.view(), expected.view()), tolerance)
        << example << ": " << firstMismatch(ours.view(), expected.view(), tolerance);
  }

 private:
  static inline Image* s_photo = nullptr;
};

TEST_F(CustomExamples, InvertIsBitwiseNot) {
  cv::Mat expected;
  cv::bitwise_not(opencv::asMat(photo()), expected);
  expectClose("invert", fromMat(expected), 0);
}

TEST_F(CustomExamples, ThresholdIsCvThresholdBinary) {
  cv::Mat expected;
  cv::threshold(opencv::asMat(photo()), expected, 128, 255, cv::THRESH_BINARY);
  expectClose("threshold", fromMat(expected), 0);
}

TEST_F(CustomExamples, PosteriseHasFourExactLevels) {
  expectClose("posterise",
              perPixel(photo(),
                       [](cv::Vec3d v, int, int) {
                         cv::Vec3d o;
                         for (int c = 0; c < 3; ++c) o[c] = std::floor(v[c] * 4 / 256) * 85;
                         return o;
                       }),
              0);
}

TEST_F(CustomExamples, SobelMagnitudeIsCvSobelAndMagnitude) {
  std::vector<cv::Mat> planes, outs(3);
  cv::split(opencv::asMat(photo()), planes);
  for (int c = 0; c < 3; ++c) {
    cv::Mat gx, gy, mag;
    cv::Sobel(planes[static_cast<size_t>(c)], gx, CV_32F, 1, 0, 3, 1, 0, cv::BORDER_REFLECT_101);
    cv::Sobel(planes[static_cast<size_t>(c)], gy, CV_32F, 0, 1, 3, 1, 0, cv::BORDER_REFLECT_101);
    cv::magnitude(gx, gy, mag);
    mag.convertTo(outs[static_cast<size_t>(c)], CV_8U);
  }
  cv::Mat expected;
  cv::merge(outs, expected);
  expectClose("sobel_magnitude", fromMat(expected), 0);
}

TEST_F(CustomExamples, GrayscaleIsCvtColorsLuma) {
  cv::Mat grey, expected;
  cv::cvtColor(opencv::asMat(photo()), grey, cv::COLOR_RGB2GRAY);
  cv::cvtColor(grey, expected, cv::COLOR_GRAY2RGB);
  expectClose("grayscale", fromMat(expected), 1);  // OpenCV's luma is 14-bit fixed point
}

TEST_F(CustomExamples, GammaIsALookUpTable) {
  cv::Mat lut(1, 256, CV_8U), expected;
  for (int i = 0; i < 256; ++i)
    lut.at<uchar>(i) = cv::saturate_cast<uchar>(255 * std::pow(i / 255.0, 1 / 2.2));
  cv::LUT(opencv::asMat(photo()), lut, expected);
  expectClose("gamma", fromMat(expected), 1);
}

TEST_F(CustomExamples, SepiaIsCvTransform) {
  const cv::Matx33f sepia(0.393f, 0.769f, 0.189f, 0.349f, 0.686f, 0.168f, 0.272f, 0.534f, 0.131f);
  cv::Mat expected;
  cv::transform(opencv::asMat(photo()), expected, sepia);
  expectClose("sepia", fromMat(expected), 1);
}

TEST_F(CustomExamples, VignetteDarkensByDistanceFromTheCentre) {
  const double w = photo().width, h = photo().height;
  expectClose("vignette",
              perPixel(photo(),
                       [&](cv::Vec3d v, int x, int y) {
                         const double dx = (x + 0.5 - w / 2) / (w / 2), dy = (y + 0.5 - h / 2) / (h / 2);
                         return v * std::clamp(1 - 0.8 * 0.5 * (dx * dx + dy * dy), 0.0, 1.0);
                       }),
              1);
}

TEST_F(CustomExamples, UnsharpIsThePixelPlusItsDifferenceFromAGaussianBlur) {
  cv::Mat src, blur;
  opencv::asMat(photo()).convertTo(src, CV_32F);
  const cv::Matx33f gauss = cv::Matx33f(1, 2, 1, 2, 4, 2, 1, 2, 1) * (1.0f / 16);
  cv::filter2D(src, blur, CV_32F, gauss, cv::Point(-1, -1), 0, cv::BORDER_REFLECT_101);
  cv::Mat sharp = src + (src - blur), expected;
  sharp.convertTo(expected, CV_8U);
  expectClose("unsharp", fromMat(expected), 1);
}

TEST(CustomExamplesFiles, EveryExampleIsTestedHere) {
  // A new example file needs a test above: this list is the examples folder.
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(kExamples))
    names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"gamma", "grayscale", "invert", "posterise", "sepia",
                                             "sobel_magnitude", "threshold", "unsharp", "vignette"}));
}

}  // namespace
}  // namespace convolab::test
