// SPDX-License-Identifier: MIT
// A CLI test with a scratch folder of its own (m_dir, with logs/ for the programs' output), removed after it.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace convolab::test {

class ScratchFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "convolab-cli-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    m_dir = tmpl;
    std::filesystem::create_directories(m_dir / "logs");
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(m_dir, ec);
  }
  std::filesystem::path path(const std::string& name) const { return m_dir / name; }

  std::filesystem::path m_dir;
};

}  // namespace convolab::test
