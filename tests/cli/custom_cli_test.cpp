// SPDX-License-Identifier: MIT
// Custom OpenCL steps from the command line (issue 36): `apply` runs one (an example file against OpenCV),
// a kernel that does not build exits 2 with the compiler's message and line, writing nothing, and `bench`
// times one.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "photo_crop_fixture.hpp"

namespace fs = std::filesystem;
using namespace convolab::clitest;

namespace {

const fs::path kExamples = fs::path(CONVOLAB_SOURCE_DIR) / "resources/presets/custom";

class CustomCli : public PhotoCropTest {};

TEST_F(CustomCli, ApplyRunsAnExample) {
  const Result r =
      cli({"apply", "-f", (kExamples / "invert.json").string(), path("in.png"), "-o", path("out.png")});
  ASSERT_EQ(r.code, 0) << r;
  cv::Mat want;
  cv::bitwise_not(cv::imread(path("in.png"), cv::IMREAD_COLOR), want);
  EXPECT_EQ(maxAbsDiff(cv::imread(path("out.png"), cv::IMREAD_COLOR), want), 0);
}

TEST_F(CustomCli, AKernelThatDoesNotBuildExits2WithItsLineAndWritesNothing) {
  writeFile(path("bad.json"),
            R"({"steps": [{"custom": {"code": ["float3 a = pixel(0, 0);", "return a * q;"]}}]})");
  const Result r = cli({"apply", "-f", path("bad.json"), path("in.png"), "-o", path("out.png")});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("line 2:"), std::string::npos) << r;
  EXPECT_NE(r.err.find("'q'"), std::string::npos) << r;
  EXPECT_FALSE(fs::exists(path("out.png")));
}

TEST_F(CustomCli, BenchTimesACustomStep) {
  const Result r =
      cli({"bench", "--filter", (kExamples / "sobel_magnitude.json").string(), "--size", "64x48",
           "--iterations", "2", "--warmup", "1", "--strategy", "naive", "--json", path("b.json")});
  ASSERT_EQ(r.code, 0) << r;
  const auto doc = nlohmann::json::parse(readFile(path("b.json")));
  const auto& res = doc["results"][0];
  EXPECT_EQ(res["status"], "ok") << res.dump(2);
  EXPECT_TRUE(res["kernel_stages_ms_median"].contains("step 1: convolve_custom")) << res.dump(2);
}

}  // namespace
