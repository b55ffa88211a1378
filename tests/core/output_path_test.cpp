// SPDX-License-Identifier: MIT
// The output rule (convolab/output_path.hpp): what every output of the programs may replace, and names that
// stay inside their folder.
#include "convolab/output_path.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "convolab/atomic_file.hpp"
#include "convolab/error.hpp"

using namespace convolab;
namespace fs = std::filesystem;

namespace {

std::string outputRefusal(const fs::path& target, bool overwrite, const std::vector<fs::path>& inputs = {}) {
  try {
    checkOutputPath(target, overwrite, inputs);
  } catch (const Error& e) {
    return e.what();
  }
  return "allowed";
}

class OutputPath : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("convolab-output-path-" + std::to_string(::getpid()));
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  fs::path m_dir;
};

}  // namespace

TEST_F(OutputPath, NeverALinkDeviceFifoFolderOrInputEvenWithOverwrite) {
  const fs::path file = m_dir / "a.png";
  std::ofstream(file) << "mine";
  fs::create_symlink(file, m_dir / "link.png");
  fs::create_hard_link(file, m_dir / "hard.png");
  ASSERT_EQ(::mkfifo((m_dir / "fifo.png").c_str(), 0600), 0);
  fs::create_directory(m_dir / "dir.png");
  EXPECT_NE(outputRefusal(m_dir / "link.png", true).find("symbolic link"), std::string::npos);
  EXPECT_NE(outputRefusal(m_dir / "fifo.png", true).find("a FIFO"), std::string::npos);
  EXPECT_NE(outputRefusal("/dev/null", true).find("a device"), std::string::npos);
  EXPECT_NE(outputRefusal(m_dir / "dir.png", true).find("a folder"), std::string::npos);
  // The same file under another name: a hard link, a "./" path.
  EXPECT_NE(outputRefusal(m_dir / "hard.png", true, {file}).find("is the input"), std::string::npos);
  EXPECT_NE(outputRefusal(m_dir / "." / "a.png", true, {"", file}).find("is the input"), std::string::npos);
  EXPECT_NE(outputRefusal(file, false).find("already exists"), std::string::npos);
  EXPECT_EQ(outputRefusal(file, true, {m_dir / "other.png"}), "allowed");
  EXPECT_EQ(outputRefusal(m_dir / "new.png", false, {file}), "allowed");
  EXPECT_NE(outputRefusal(m_dir / "nofolder" / "x.png", true).find("does not exist"), std::string::npos);
  // AtomicFile (every atomic write) applies the same rule.
  EXPECT_THROW(AtomicFile(m_dir / "fifo.png", true), Error);
  EXPECT_THROW(writeFileAtomically(m_dir / "link.png", "x", true), Error);
  std::ifstream in(file);
  std::string kept;
  in >> kept;
  EXPECT_EQ(kept, "mine");
}

TEST_F(OutputPath, NamesStayInsideTheirFolder) {
  EXPECT_EQ(outputInFolder(m_dir, "x_filtered.png"), m_dir / "x_filtered.png");
  for (const std::string& bad :
       std::vector<std::string>{"x/../../y.png", "/../x", "..", ".", "", std::string("a\0b", 3)}) {
    try {
      outputInFolder(m_dir, bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
    }
  }
}
