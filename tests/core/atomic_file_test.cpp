// SPDX-License-Identifier: MIT
// AtomicFile / writeFileAtomically: modes kept, non-regular targets refused, temporaries never left behind.
#include "convolab/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "convolab/error.hpp"

namespace convolab {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("convolab-atomic-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  int entries() {
    int n = 0;
    for (auto& e : fs::directory_iterator(m_dir)) (void)e, ++n;
    return n;
  }

  fs::path m_dir;
};

TEST_F(AtomicFileTest, ForceKeepsTheTargetsMode) {
  const fs::path p = m_dir / "secret.txt";
  std::ofstream(p) << "old";
  ASSERT_EQ(::chmod(p.c_str(), 0600), 0);
  writeFileAtomically(p, "new", true);
  EXPECT_EQ(read(p), "new");
  struct stat st {};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(entries(), 1);
}

TEST_F(AtomicFileTest, RefusesSymlinkAndDeviceTargets) {
  const fs::path real = m_dir / "real.txt", link = m_dir / "link.txt";
  std::ofstream(real) << "keep";
  fs::create_symlink(real, link);
  EXPECT_THROW(writeFileAtomically(link, "x", true), Error);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read(real), "keep");
  // A device node in the target's place: refused by name, before any temporary is created beside it.
  try {
    AtomicFile f("/dev/null", true);
    FAIL() << "a device target was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("device"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_THROW(writeFileAtomically(m_dir, "x", true), Error);  // a folder
  EXPECT_EQ(entries(), 2);
}

TEST_F(AtomicFileTest, UncommittedFileLeavesNothingAndCommitMovesIt) {
  const fs::path target = m_dir / "video.mkv";
  {
    AtomicFile f(target, false);
    EXPECT_TRUE(fs::exists(f.temporaryPath()));
    EXPECT_EQ(f.temporaryPath().extension(), ".mkv") << "extension-driven writers need it";
    EXPECT_TRUE(isAtomicTemporaryName(f.temporaryPath().filename().string()));
  }
  EXPECT_EQ(entries(), 0);
  {
    AtomicFile f(target, false);
    f.write("data");
    f.commit();
  }
  EXPECT_EQ(read(target), "data");
  EXPECT_EQ(entries(), 1);
  EXPECT_THROW(AtomicFile(target, false), Error);
}

TEST_F(AtomicFileTest, RemovePendingTemporariesDeletesLiveOnes) {
  AtomicFile f(m_dir / "a.png", false);
  ASSERT_TRUE(fs::exists(f.temporaryPath()));
  removePendingTemporaries();
  EXPECT_FALSE(fs::exists(f.temporaryPath()));
}

TEST_F(AtomicFileTest, TemporaryNamePattern) {
  EXPECT_TRUE(isAtomicTemporaryName(".out.png.convolab-tmp-a1B2c3.png"));
  EXPECT_TRUE(isAtomicTemporaryName(".out.json.convolab-tmp-a1B2c3"));
  EXPECT_TRUE(isAtomicTemporaryName(".out.png.tmp-Zx9abc"));               // before AtomicFile
  EXPECT_FALSE(isAtomicTemporaryName("out.png.convolab-tmp-a1B2c3.png"));  // not hidden
  EXPECT_FALSE(isAtomicTemporaryName(".out.png.tmp-abc"));
  EXPECT_FALSE(isAtomicTemporaryName(".bashrc"));
  EXPECT_FALSE(isAtomicTemporaryName(".x.tmp-abcdef.png"));
}

TEST_F(AtomicFileTest, SweepRemovesOnlyOurStaleTemporaries) {
  const fs::path stale = m_dir / ".a.png.convolab-tmp-AbC123.png",
                 fresh = m_dir / ".b.png.convolab-tmp-XyZ789.png", foreign = m_dir / ".someone-elses.tmp",
                 legacy = m_dir / ".c.json.tmp-q1w2e3";
  for (const auto& p : {stale, fresh, foreign, legacy}) std::ofstream(p) << "x";
  const time_t old = ::time(nullptr) - 3600;
  struct utimbuf times {
    old, old
  };
  for (const auto& p : {stale, foreign, legacy}) ASSERT_EQ(::utime(p.c_str(), &times), 0);
  EXPECT_EQ(sweepStaleTemporaries(m_dir), 2);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_FALSE(fs::exists(legacy));
  EXPECT_TRUE(fs::exists(fresh)) << "a recent one may be a save in progress";
  EXPECT_TRUE(fs::exists(foreign));
}

TEST_F(AtomicFileTest, WritingIntoAFolderSweepsIt) {
  const fs::path stale = m_dir / ".a.png.convolab-tmp-AbC123.png";
  std::ofstream(stale) << "x";
  const time_t old = ::time(nullptr) - 3600;
  struct utimbuf times {
    old, old
  };
  ASSERT_EQ(::utime(stale.c_str(), &times), 0);
  writeFileAtomically(m_dir / "out.txt", "y", false);
  EXPECT_FALSE(fs::exists(stale));
}

}  // namespace
}  // namespace convolab
