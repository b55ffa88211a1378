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
#include <vector>

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
  EXPECT_TRUE(isAtomicTemporaryName(".out.json.convolab-tmp-a1B2c3.json"));
  EXPECT_TRUE(isAtomicTemporaryName(".Makefile.convolab-tmp-a1B2c3"));
  EXPECT_FALSE(isAtomicTemporaryName("out.png.convolab-tmp-a1B2c3.png"));  // not hidden
  EXPECT_FALSE(isAtomicTemporaryName(".out.png.tmp-Zx9abc"));  // the old ".tmp-" shape: anybody's name
  EXPECT_FALSE(isAtomicTemporaryName(".out.png.tmp-abc"));
  EXPECT_FALSE(isAtomicTemporaryName(".bashrc"));
  EXPECT_FALSE(isAtomicTemporaryName(".x.tmp-abcdef.png"));
  // Look-alikes: the marker, but not the exact shape AtomicFile makes.
  EXPECT_FALSE(isAtomicTemporaryName(".out.json.convolab-tmp-a1B2c3"));       // extension missing
  EXPECT_FALSE(isAtomicTemporaryName(".out.png.convolab-tmp-a1B2c3.jpg"));    // extension differs
  EXPECT_FALSE(isAtomicTemporaryName(".out.png.convolab-tmp-a1B2c3-notes"));  // more after it
  EXPECT_FALSE(isAtomicTemporaryName(".out.png.convolab-tmp-a1B2c.png"));     // 5 random characters
  EXPECT_FALSE(isAtomicTemporaryName(".out.png.convolab-tmp-a1B2c3d.png"));   // 7
  EXPECT_FALSE(isAtomicTemporaryName(".out.png.convolab-tmp-a1_2c3.png"));    // not mkstemps' letters
  EXPECT_FALSE(isAtomicTemporaryName("..convolab-tmp-a1B2c3"));
  // Every temporary AtomicFile makes has the shape, long names and long extensions included.
  for (const std::string& name :
       {std::string("a.png"), std::string(".hidden"), std::string("noext"), std::string(200, 'n') + ".tiff",
        "x." + std::string(20, 'e'), std::string("a.b.c")}) {
    AtomicFile f(m_dir / name, false);
    EXPECT_TRUE(isAtomicTemporaryName(f.temporaryPath().filename().string())) << f.temporaryPath();
  }
}

// Hidden files of the user's that look like temporaries, old enough to be "stale".
std::vector<fs::path> makeLookAlikes(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const char* name :
       {".bashrc.tmp-backup", ".thesis.docx.tmp-123456", ".c.json.tmp-q1w2e3", ".someone-elses.tmp",
        ".notes.txt.convolab-tmp-draft1.md", ".a.png.convolab-tmp-AbC123.png.bak", ".plan.convolab-tmp-x"}) {
    files.push_back(dir / name);
    std::ofstream(files.back()) << "the user's";
  }
  return files;
}

void makeOld(const fs::path& p) {
  const time_t old = ::time(nullptr) - 3600;
  struct utimbuf times {
    old, old
  };
  ASSERT_EQ(::utime(p.c_str(), &times), 0);
}

TEST_F(AtomicFileTest, SweepRemovesOnlyOurStaleTemporaries) {
  const fs::path stale = m_dir / ".a.png.convolab-tmp-AbC123.png",
                 fresh = m_dir / ".b.png.convolab-tmp-XyZ789.png";
  for (const auto& p : {stale, fresh}) std::ofstream(p) << "x";
  const auto lookAlikes = makeLookAlikes(m_dir);
  makeOld(stale);
  for (const auto& p : lookAlikes) makeOld(p);
  EXPECT_EQ(sweepStaleTemporaries(m_dir), 1);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(fresh)) << "a recent one may be a save in progress";
  for (const auto& p : lookAlikes) EXPECT_TRUE(fs::exists(p)) << p << " is not ours";
}

// A write into a user's folder deletes nothing there, not even a stale temporary of ours: the folder and its
// names are the user's (a leftover of a killed save is hidden and named for what it is).
TEST_F(AtomicFileTest, WritingIntoAFolderDeletesNothingElse) {
  const fs::path ours = m_dir / ".a.png.convolab-tmp-AbC123.png";
  std::ofstream(ours) << "x";
  auto files = makeLookAlikes(m_dir);
  files.push_back(ours);
  for (const auto& p : files) makeOld(p);
  writeFileAtomically(m_dir / "out.txt", "y", false);
  AtomicFile video(m_dir / "out.png", false);
  video.write("z");
  video.commit();
  for (const auto& p : files) EXPECT_TRUE(fs::exists(p)) << p;
  EXPECT_EQ(entries(), static_cast<int>(files.size()) + 2);
}

TEST_F(AtomicFileTest, OwnFolderIsSweptOnce) {
  const fs::path stale = m_dir / ".a.png.convolab-tmp-AbC123.png";
  std::ofstream(stale) << "x";
  const auto lookAlikes = makeLookAlikes(m_dir);
  makeOld(stale);
  for (const auto& p : lookAlikes) makeOld(p);
  sweepOwnFolderOnce(m_dir);
  EXPECT_FALSE(fs::exists(stale));
  for (const auto& p : lookAlikes) EXPECT_TRUE(fs::exists(p)) << p;
  std::ofstream(stale) << "x";
  makeOld(stale);
  sweepOwnFolderOnce(m_dir);
  EXPECT_TRUE(fs::exists(stale)) << "once per folder and process";
}

}  // namespace
}  // namespace convolab
