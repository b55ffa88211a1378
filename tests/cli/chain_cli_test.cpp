// SPDX-License-Identifier: MIT
// Chain files end to end: `apply -f chain.json` equals OpenCV step by step on an image and on every frame of
// a video, `bench --filter chain.json` times each step, and a bad chain exits 2 naming the step, writing
// nothing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "convolab/filter_io.hpp"
#include "photo_crop_fixture.hpp"

namespace fs = std::filesystem;
using namespace convolab::clitest;

namespace {

const char* const kBlur = R"({"name": "Blur", "matrix": [[1,2,1],[2,4,2],[1,2,1]], "divisor": 16})";
const char* const kSobelX = R"({"matrix": [[-1,0,1],[-2,0,2],[-1,0,1]]})";
const char* const kSobelY = R"({"matrix": [[-1,-2,-1],[0,0,0],[1,2,1]]})";

std::string blurThenEdges() {
  return std::string(R"({"name": "Blur, then edges", "steps": [)") + kBlur + R"(, {"magnitude": [)" +
         kSobelX + "," + kSobelY + "]}]}";
}

class ChainCli : public PhotoCropTest {};

// The blur through filter2D (rounded to uchar), then the magnitude of the two Sobels of that image in double.
cv::Mat opencvBlurThenEdges(const cv::Mat& bgr) {
  const cv::Mat blurred = expectedBgr(bgr, convolab::parseFilterJson(kBlur));
  cv::Mat wide, gx, gy, mag, out;
  blurred.convertTo(wide, CV_64F);
  const auto kernel = [](const char* json) {
    const convolab::FilterSet f = convolab::parseFilterJson(json);
    cv::Mat k(3, 3, CV_64F);
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) k.at<double>(j, i) = f.channel(0).at(j, i);
    return k;
  };
  cv::filter2D(wide, gx, CV_64F, kernel(kSobelX), cv::Point(-1, -1), 0, cv::BORDER_REFLECT_101);
  cv::filter2D(wide, gy, CV_64F, kernel(kSobelY), cv::Point(-1, -1), 0, cv::BORDER_REFLECT_101);
  cv::magnitude(gx.reshape(1), gy.reshape(1), mag);
  mag.reshape(3).convertTo(out, CV_8U);
  return out;
}

TEST_F(ChainCli, ApplyAChainEqualsOpenCvStepByStep) {
  const std::string chain = file("chain.json", blurThenEdges());
  for (const char* strategy : {"naive", "auto"}) {
    const std::string out = path(std::string("out-") + strategy + ".png");
    const Result r = cli({"apply", "-s", strategy, "-f", chain, path("in.png"), "-o", out});
    ASSERT_EQ(r.code, 0) << r;
    EXPECT_NE(r.out.find("chain 'Blur, then edges' of 2 steps"), std::string::npos) << r;
    const cv::Mat got = cv::imread(out, cv::IMREAD_COLOR);
    const cv::Mat want = opencvBlurThenEdges(cv::imread(path("in.png"), cv::IMREAD_COLOR));
    ASSERT_EQ(got.size(), want.size());
    EXPECT_EQ(maxAbsDiff(got, want), 0) << strategy;  // integer weights, divisor 16: exact
  }
}

TEST_F(ChainCli, BadChainsExit2NamingTheStepAndWriteNothing) {
  std::string nine = R"({"steps": [)";
  for (int i = 0; i < 9; ++i) nine += std::string(i ? "," : "") + kBlur;
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"({"steps": []})", "no steps"},
      {nine + "]}", "9 steps"},
      {std::string(R"({"steps": [)") + kBlur + R"(, {"matrix": [[1,2],[3,4]]}]})", "step 2: field 'matrix'"},
      {std::string(R"({"steps": [{"magnitude": [)") + kSobelX + "]}]}", "step 1: field 'magnitude'"}};
  for (size_t i = 0; i < bad.size(); ++i) {
    const std::string out = path("bad" + std::to_string(i) + ".png");
    const Result r =
        cli({"apply", "-s", "naive", "-f", file("bad.json", bad[i].first), path("in.png"), "-o", out});
    EXPECT_EQ(r.code, 2) << r;
    EXPECT_NE(r.err.find(bad[i].second), std::string::npos) << r;
    EXPECT_FALSE(fs::exists(out));
  }
}

/// Every frame of `video` (FFV1: lossless), and of the output written from it, as read by OpenCV.
std::vector<cv::Mat> decodeAll(const std::string& video) {
  cv::VideoCapture c(video, cv::CAP_FFMPEG);
  EXPECT_TRUE(c.isOpened()) << video;
  std::vector<cv::Mat> frames;
  for (cv::Mat m; c.read(m);) frames.push_back(m.clone());
  return frames;
}

// A chain filters a video as it filters an image (issue 30): every frame of an odd-sized clip equals OpenCV
// step by step, alone and beside an image in a batch, with every strategy the chain may take.
TEST_F(ChainCli, ApplyAChainToAVideoFiltersEveryFrameAsOpenCvStepByStep) {
  const std::string chain = file("chain.json", blurThenEdges());
  const std::string video = (fs::path(CONVOLAB_SOURCE_DIR) / "tests/data/video/odd_65x49.mkv").string();
  const std::vector<cv::Mat> input = decodeAll(video);
  ASSERT_EQ(input.size(), 4u);
  for (const char* strategy : {"naive", "auto"}) {
    const std::string out = path(std::string("out-") + strategy + ".mkv");
    const Result r = cli({"apply", "-s", strategy, "-f", chain, video, "-o", out});
    ASSERT_EQ(r.code, 0) << r;
    EXPECT_NE(r.out.find("FFV1, chain 'Blur, then edges' of 2 steps, strategy " + std::string(strategy) +
                         " (chain: 1 "),
              std::string::npos)
        << r;
    const std::vector<cv::Mat> output = decodeAll(out);
    ASSERT_EQ(output.size(), input.size()) << strategy;
    for (std::size_t k = 0; k < input.size(); ++k)  // written 66×50: the padding aside
      EXPECT_EQ(maxAbsDiff(output[k](cv::Rect(0, 0, 65, 49)), opencvBlurThenEdges(input[k])), 0)
          << strategy << ", frame " << k;  // integer weights, divisor 16: exact
  }
  const Result batch =
      cli({"apply", "-s", "naive", "-f", chain, path("in.png"), video, "-o", path("out") + "/"});
  EXPECT_EQ(batch.code, 0) << batch;
  EXPECT_TRUE(fs::exists(path("out/in.png")));
  EXPECT_EQ(decodeAll(path("out/odd_65x49.mkv")).size(), input.size());
}

// A bad chain is refused before the video is opened: exit 2, the step named, nothing written.
TEST_F(ChainCli, ABadChainGivenAVideoExits2NamingTheStep) {
  const std::string video = (fs::path(CONVOLAB_SOURCE_DIR) / "tests/data/video/odd_65x49.mkv").string();
  const std::string bad = std::string(R"({"steps": [)") + kBlur + R"(, {"magnitude": [)" + kSobelX + "]}]}";
  const Result r = cli({"apply", "-f", file("bad.json", bad), video, "-o", path("out.mkv")});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("step 2: field 'magnitude'"), std::string::npos) << r;
  EXPECT_FALSE(fs::exists(path("out.mkv")));
}

TEST_F(ChainCli, BenchTimesEachStepOfAChain) {
  const std::string chain = file("chain.json", blurThenEdges());
  const Result r = cli({"bench", "--filter", chain, "--size", "64x48", "--iterations", "2", "--warmup", "1",
                        "--strategy", "naive", "--json", path("bench.json")});
  ASSERT_EQ(r.code, 0) << r;
  const auto doc = nlohmann::json::parse(readFile(path("bench.json")));
  EXPECT_EQ(doc["config"]["steps"], 2);
  ASSERT_GE(doc["results"].size(), 1u);
  const auto& res = doc["results"][0];
  EXPECT_EQ(res["status"], "ok") << res.dump(2);
  EXPECT_EQ(res["max_abs_diff"], 0);  // against the CPU reference of the chain
  const auto& stages = res["kernel_stages_ms_median"];
  EXPECT_TRUE(stages.contains("step 1: convolve_naive")) << stages.dump();
  EXPECT_TRUE(stages.contains("step 2: convolve_magnitude")) << stages.dump();
  // Beside the step-by-step rows: the whole chain in one launch.
  ASSERT_EQ(doc["results"].size(), 2u);
  const auto& fused = doc["results"][1];
  EXPECT_EQ(fused["strategy"], "fused");
  EXPECT_EQ(fused["status"], "ok") << fused.dump(2);
  EXPECT_EQ(fused["max_abs_diff"], 0);
  EXPECT_TRUE(fused["kernel_stages_ms_median"].contains("convolve_fused")) << fused.dump();
}

}  // namespace
