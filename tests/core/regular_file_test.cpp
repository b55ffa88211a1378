// SPDX-License-Identifier: MIT
// readRegularFile: what the caches read through; never blocks on a FIFO, never reads a device or a folder.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <future>

#include "convolab/regular_file.hpp"

namespace convolab {
namespace {

namespace fs = std::filesystem;

TEST(RegularFile, ReadsFilesAndRefusesEverythingElseWithoutBlocking) {
  const fs::path dir = fs::temp_directory_path() / ("convolab-regular-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "folder");
  std::ofstream(dir / "file") << "hello";
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  fs::create_symlink(dir / "file", dir / "link");
  // A FIFO with no writer would block a plain open() forever: run it on a thread with a deadline.
  auto fifo = std::async(std::launch::async, [&] { return readRegularFile(dir / "fifo", 100); });
  ASSERT_EQ(fifo.wait_for(std::chrono::seconds(30)), std::future_status::ready) << "blocked on a FIFO";
  EXPECT_FALSE(fifo.get().has_value());
  EXPECT_EQ(readRegularFile(dir / "file", 100).value_or("?"), "hello");
  EXPECT_EQ(readRegularFile(dir / "link", 100).value_or("?"), "hello") << "links to files are followed";
  EXPECT_FALSE(readRegularFile(dir / "file", 4).has_value()) << "over the size limit";
  EXPECT_FALSE(readRegularFile(dir / "folder", 100).has_value());
  EXPECT_FALSE(readRegularFile(dir / "missing", 100).has_value());
  EXPECT_FALSE(readRegularFile("/dev/zero", 100).has_value());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace convolab
