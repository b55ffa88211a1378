// SPDX-License-Identifier: MIT
// PhotoCropTest: a temporary folder holding in.png, a 61×47 crop of coffee.png (small, so every run is cheap
// on PoCL), and convolab-cli run there. The chain and custom-step CLI tests start from it.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <string>
#include <vector>

#include "cli_test_support.hpp"

namespace convolab::clitest {

class PhotoCropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "convolab-crop-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    m_dir = tmpl;
    const std::filesystem::path coffee = std::filesystem::path(CONVOLAB_SOURCE_DIR) / "tests/data/coffee.png";
    const cv::Mat crop = cv::imread(coffee.string(), cv::IMREAD_COLOR)(cv::Rect(90, 80, 61, 47)).clone();
    ASSERT_TRUE(cv::imwrite(path("in.png"), crop));
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(m_dir, ec);
  }
  Result cli(const std::vector<std::string>& args) { return runProgram(CONVOLAB_CLI_PATH, args, m_dir); }
  std::string path(const std::string& name) const { return (m_dir / name).string(); }
  std::string file(const std::string& name, const std::string& text) {
    writeFile(path(name), text);
    return path(name);
  }

  std::filesystem::path m_dir;
};

}  // namespace convolab::clitest
