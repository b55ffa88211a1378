// SPDX-License-Identifier: MIT
// What "atomic" promises a reader: the destination holds the old bytes or the new ones, never a mix or a
// truncated file, and a write that does not finish leaves the old file as it was. A write in place (truncate
// the destination, then write) breaks each of these, which the content checks of atomic_file_test.cpp cannot
// see once the write has ended.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "convolab/atomic_file.hpp"

namespace convolab::atomic_write_contract {
namespace {

namespace fs = std::filesystem;

class AtomicWriteContract : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("convolab-atomic-contract-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
    m_target = m_dir / "result.json";
  }
  void TearDown() override { fs::remove_all(m_dir); }

  static std::string contentOf(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  static ino_t inodeOf(const fs::path& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 ? st.st_ino : 0;
  }
  int entries() const {
    int n = 0;
    for (const auto& e : fs::directory_iterator(m_dir)) (void)e, ++n;
    return n;
  }

  fs::path m_dir, m_target;
  const std::string m_old = std::string(100000, 'o');  // large enough that a partial write would show
};

// A reader that opened the old file (here: a second name for it) keeps reading all of it: the new bytes go
// into another file that replaces the name. In place, the old bytes would be truncated under the reader.
TEST_F(AtomicWriteContract, ReplacingWritesANewFileAndLeavesTheOldOneWhole) {
  std::ofstream(m_target, std::ios::binary) << m_old;
  const fs::path reader = m_dir / "reader-of-old";
  fs::create_hard_link(m_target, reader);
  const ino_t before = inodeOf(m_target);

  writeFileAtomically(m_target, "new", true);

  EXPECT_EQ(contentOf(m_target), "new");
  EXPECT_NE(inodeOf(m_target), before) << "the destination was rewritten in place";
  EXPECT_EQ(contentOf(reader), m_old) << "the old file changed under a reader";
  EXPECT_EQ(entries(), 2);  // target and the reader's link: no temporary left
}

// Until commit() the destination is untouched: the bytes go to a temporary beside it.
TEST_F(AtomicWriteContract, TheDestinationIsUntouchedUntilCommit) {
  std::ofstream(m_target, std::ios::binary) << m_old;
  {
    AtomicFile file(m_target, true);
    EXPECT_NE(file.temporaryPath(), m_target);
    EXPECT_EQ(file.temporaryPath().parent_path(), m_target.parent_path());  // same folder: rename is atomic
    file.write(std::string(50000, 'n'));
    EXPECT_EQ(contentOf(m_target), m_old) << "a reader saw a half-written destination";
    file.write(std::string(50000, 'n'));
    file.commit();
  }
  EXPECT_EQ(contentOf(m_target), std::string(100000, 'n'));
  EXPECT_EQ(entries(), 1);
}

// A write that ends without commit (an error, a cancel) leaves the old file as it was, and no temporary.
TEST_F(AtomicWriteContract, AnUnfinishedWriteLeavesTheOldFileIntact) {
  std::ofstream(m_target, std::ios::binary) << m_old;
  {
    AtomicFile file(m_target, true);
    file.write("partial");
  }  // destroyed uncommitted
  EXPECT_EQ(contentOf(m_target), m_old);
  EXPECT_EQ(entries(), 1);
}

// A new destination does not exist, not even empty, until commit().
TEST_F(AtomicWriteContract, ANewDestinationAppearsOnlyAtCommit) {
  AtomicFile file(m_target, false);
  file.write("content");
  EXPECT_FALSE(fs::exists(m_target));
  file.commit();
  EXPECT_EQ(contentOf(m_target), "content");
}

}  // namespace
}  // namespace convolab::atomic_write_contract
