// SPDX-License-Identifier: MIT
// End-to-end tests of `convolab-cli apply` on batches and videos: bad files among good ones, output naming,
// --skip-existing, video round trips, a stop by SIGINT, --force on special targets, header-first limits.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_support.hpp"
#include "convolab/filter_io.hpp"
#include "scratch_folder_test.hpp"

namespace {

using namespace convolab::clitest;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const fs::path kSource = CONVOLAB_SOURCE_DIR;
const fs::path kCoffee = kSource / "tests/data/coffee.png";
const fs::path kSharpen = kSource / "resources/presets/sharpen.json";

class ApplyBatch : public convolab::test::ScratchFolderTest {
 protected:
  Result cli(const std::vector<std::string>& args) {
    return runProgram(CONVOLAB_CLI_PATH, args, m_dir / "logs");
  }
  Result apply(std::vector<std::string> args) {
    std::vector<std::string> all{"apply", "-s", "naive", "-f", kSharpen.string()};
    all.insert(all.end(), args.begin(), args.end());
    return cli(all);
  }
  /// A small image (a crop of the coffee photo) written as `name`.
  void writeImage(const fs::path& p, int x = 0) {
    const cv::Mat crop = cv::imread(kCoffee.string(), cv::IMREAD_COLOR)(cv::Rect(x, 20, 24, 16)).clone();
    ASSERT_TRUE(cv::imwrite(p.string(), crop));
  }
  /// A FFV1 video of random frames.
  void writeVideo(const fs::path& p, int w, int h, int frames) {
    cv::VideoWriter writer(p.string(), cv::CAP_FFMPEG, cv::VideoWriter::fourcc('F', 'F', 'V', '1'), 25,
                           cv::Size(w, h));
    ASSERT_TRUE(writer.isOpened());
    cv::RNG rng(7);
    cv::Mat frame(h, w, CV_8UC3);
    for (int i = 0; i < frames; ++i) {
      rng.fill(frame, cv::RNG::UNIFORM, 0, 256);
      cv::GaussianBlur(frame, frame, cv::Size(5, 5), 1.5);  // some structure for the filter to act on
      writer.write(frame);
    }
  }
  /// Hidden temporaries left in `dir`.
  static int temporaries(const fs::path& dir) {
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir))
      n += e.path().filename().string().find("tmp-") != std::string::npos;
    return n;
  }
};

TEST_F(ApplyBatch, OneCorruptFileAmongGoodOnesFailsAloneAndExits3) {
  fs::create_directories(path("in"));
  writeImage(path("in/a.png"), 0);
  { std::ofstream(path("in/b.png")) << "\x89PNG\r\n\x1a\n not really"; }
  writeImage(path("in/c.jpg"), 30);
  const Result r = apply({path("in").string(), "-o", path("out/").string()});
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_TRUE(fs::exists(path("out/a.png"))) << r;
  EXPECT_TRUE(fs::exists(path("out/c.jpg"))) << r;
  EXPECT_FALSE(fs::exists(path("out/b.png")));
  EXPECT_NE(r.err.find("b.png"), std::string::npos) << "the failure names the file\n" << r;
  EXPECT_NE(r.err.find("1 failed"), std::string::npos) << r;
  EXPECT_EQ(temporaries(path("out")), 0);
}

TEST_F(ApplyBatch, OutputsAreNamedAfterInputsWithSuffix) {
  writeImage(path("x.png"), 0);
  fs::create_directories(path("sub"));
  writeImage(path("sub/y.bmp"), 10);
  const Result r = apply({path("x.png").string(), path("sub/y.bmp").string(), "-o",
                          path("out").string() + "/", "--suffix", "_filtered"});
  ASSERT_EQ(r.code, 0) << r;
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(path("out"))) names.insert(e.path().filename().string());
  EXPECT_EQ(names, (std::set<std::string>{"x_filtered.png", "y_filtered.bmp"}));
  const cv::Mat want = expectedBgr(cv::imread(path("x.png").string()), convolab::loadFilterFile(kSharpen));
  EXPECT_LE(maxAbsDiff(cv::imread(path("out/x_filtered.png").string()), want), 1);
  // Several inputs into one file is a usage error, before any work.
  EXPECT_EQ(apply({path("x.png").string(), path("sub/y.bmp").string(), "-o", path("one.png").string()}).code,
            2);
}

TEST_F(ApplyBatch, SkipExistingResumesABatch) {
  fs::create_directories(path("in"));
  writeImage(path("in/a.png"), 0);
  writeImage(path("in/b.png"), 30);
  fs::create_directories(path("out"));
  { std::ofstream(path("out/a.png")) << "done earlier"; }
  const Result refused = apply({path("in").string(), "-o", path("out/").string()});
  EXPECT_EQ(refused.code, 3) << refused;  // a.png exists: refused without --force or --skip-existing
  fs::remove(path("out/b.png"));
  const Result r = apply({path("in").string(), "-o", path("out/").string(), "--skip-existing"});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_EQ(readFile(path("out/a.png")), "done earlier");
  EXPECT_FALSE(cv::imread(path("out/b.png").string()).empty());
  EXPECT_NE(r.err.find("1 skipped"), std::string::npos) << r;
}

TEST_F(ApplyBatch, VideoRoundTripToFfv1MatchesFilter2DPerFrame) {
  writeVideo(path("in.mkv"), 64, 48, 10);
  const Result r = apply({path("in.mkv").string(), "-o", path("out.mkv").string()});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_NE(r.err.find("audio"), std::string::npos) << "says the audio is not kept\n" << r;
  const auto filter = convolab::loadFilterFile(kSharpen);
  cv::VideoCapture in(path("in.mkv").string(), cv::CAP_FFMPEG), out(path("out.mkv").string(), cv::CAP_FFMPEG);
  ASSERT_TRUE(in.isOpened() && out.isOpened());
  EXPECT_NEAR(out.get(cv::CAP_PROP_FPS), 25.0, 0.01);
  int frames = 0;
  cv::Mat a, b;
  while (in.read(a)) {
    ASSERT_TRUE(out.read(b)) << "output has fewer frames: " << frames;
    ASSERT_EQ(b.size(), a.size());
    EXPECT_LE(maxAbsDiff(b, expectedBgr(a, filter)), 1) << "frame " << frames;
    ++frames;
  }
  EXPECT_FALSE(out.read(b)) << "output has more frames";
  EXPECT_EQ(frames, 10);
  EXPECT_EQ(temporaries(m_dir), 0);
}

TEST_F(ApplyBatch, SigintMidVideoLeavesNoPartialOutputAndExits130) {
  writeVideo(path("long.mkv"), 160, 120, 1500);
  const pid_t pid = spawnProgram(CONVOLAB_CLI_PATH,
                                 {"apply", "-s", "naive", "-f", kSharpen.string(), path("long.mkv").string(),
                                  "-o", path("out.mkv").string()},
                                 m_dir / "logs");
  ASSERT_GT(pid, 0);
  // Wait until the output's temporary exists (frames are flowing), then interrupt.
  const auto deadline = Clock::now() + std::chrono::seconds(60);
  bool writing = false;
  while (!writing && Clock::now() < deadline) {
    writing = temporaries(m_dir) > 0;
    if (!writing) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(writing) << finishProgram(pid, m_dir / "logs");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ::kill(pid, SIGINT);
  const Result r = finishProgram(pid, m_dir / "logs");
  EXPECT_EQ(r.code, 130) << r;
  EXPECT_FALSE(fs::exists(path("out.mkv")));
  EXPECT_EQ(temporaries(m_dir), 0);
}

TEST_F(ApplyBatch, ForceKeepsModeAndRefusesSymlinkOrDeviceTargets) {
  writeImage(path("in.png"));
  { std::ofstream(path("private.png")) << "old"; }
  ASSERT_EQ(::chmod(path("private.png").c_str(), 0600), 0);
  Result r = apply({path("in.png").string(), "-o", path("private.png").string(), "--force"});
  ASSERT_EQ(r.code, 0) << r;
  struct stat st {};
  ASSERT_EQ(::stat(path("private.png").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);

  { std::ofstream(path("real.png")) << "keep"; }
  fs::create_symlink(path("real.png"), path("link.png"));
  r = apply({path("in.png").string(), "-o", path("link.png").string(), "--force"});
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_NE(r.err.find("symbolic link"), std::string::npos) << r;
  EXPECT_TRUE(fs::is_symlink(path("link.png")));
  EXPECT_EQ(readFile(path("real.png")), "keep");

  fs::create_symlink("/dev/null", path("null.png"));  // a device behind a link: refused as a link
  r = apply({path("in.png").string(), "-o", path("null.png").string(), "--force"});
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_EQ(temporaries(m_dir), 0);
}

// The output rule in the CLI (docs/RELIABILITY.md, "Output paths"): a --suffix may not leave the output
// folder, no output may be an input (a hard link to it included), a FIFO is never replaced, and two inputs of
// one name in two folders do not share an output.
TEST_F(ApplyBatch, OutputsStayInTheirFolderAndNeverReplaceInputsOrSpecialFiles) {
  fs::create_directories(path("in"));
  fs::create_directories(path("out"));
  writeImage(path("in/x.png"));
  const std::string photo = readFile(path("in/x.png"));
  Result r = apply({path("in/x.png").string(), "-o", path("out/").string(), "--suffix", "/../x"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("--suffix"), std::string::npos) << r;
  EXPECT_FALSE(fs::exists(path("x.png"))) << "written outside the output folder";
  EXPECT_TRUE(fs::is_empty(path("out")));

  fs::create_hard_link(path("in/x.png"), path("out/x.png"));
  r = apply({path("in/x.png").string(), "-o", path("out/").string(), "--force"});
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_EQ(readFile(path("in/x.png")), photo);
  fs::remove(path("out/x.png"));

  ASSERT_EQ(::mkfifo(path("out/fifo.png").c_str(), 0600), 0);
  r = apply({path("in/x.png").string(), "-o", path("out/fifo.png").string(), "--force"});
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_TRUE(fs::is_fifo(path("out/fifo.png")));
  fs::remove(path("out/fifo.png"));

  fs::create_directories(path("in2"));
  writeImage(path("in2/x.png"), 30);
  r = apply({path("in").string(), path("in2").string(), "-o", path("out/").string()});
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_NE(r.err.find("same name in two folders"), std::string::npos) << r;
  const cv::Mat want = expectedBgr(cv::imread(path("in/x.png").string()), convolab::loadFilterFile(kSharpen));
  EXPECT_LE(maxAbsDiff(cv::imread(path("out/x.png").string()), want), 1) << "the first input's output";
  EXPECT_EQ(temporaries(m_dir), 0);
}

// A folder's entries named like images that are no image files: a folder "dir.png", a link that loops, a
// link to nothing, a FIFO. Each is counted and reported (exit 3); none is skipped in silence, none hangs.
TEST_F(ApplyBatch, FolderEntriesThatAreNoImageFilesAreCountedAndReported) {
  fs::create_directories(path("in/dir.png"));
  writeImage(path("in/a.png"), 0);
  fs::create_symlink("loop.png", path("in/loop.png"));
  fs::create_symlink("missing.jpg", path("in/broken.jpg"));
  ASSERT_EQ(::mkfifo(path("in/pipe.png").c_str(), 0600), 0);
  { std::ofstream(path("in/notes.txt")) << "not an image: not part of the batch"; }
  const Result r = apply({path("in").string(), "-o", path("out/").string()});
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_TRUE(fs::exists(path("out/a.png"))) << r;
  for (const auto& [name, why] :
       std::vector<std::pair<std::string, std::string>>{{"dir.png", "a folder"},
                                                        {"loop.png", "symbolic link loop"},
                                                        {"broken.jpg", "does not exist"},
                                                        {"pipe.png", "FIFO"}}) {
    const auto at = r.err.find(name + "': ");
    ASSERT_NE(at, std::string::npos) << name << " not reported\n" << r;
    EXPECT_NE(r.err.find(why, at), std::string::npos) << name << ": '" << why << "'\n" << r;
  }
  EXPECT_NE(r.err.find("4 failed"), std::string::npos) << r;
  EXPECT_EQ(r.err.find("notes.txt"), std::string::npos) << r;
  // A loop given directly is named for what it is, too.
  const Result direct = apply({path("in/loop.png").string(), "-o", path("one.png").string()});
  EXPECT_EQ(direct.code, 3) << direct;
  EXPECT_NE(direct.err.find("symbolic link loop"), std::string::npos) << direct;
}

// A newline in a file name is printed escaped, so the error stays one line and names one file (here the
// filter's name, which the core's messages carry).
TEST_F(ApplyBatch, NewlineInAFileNameIsPrintedEscaped) {
  writeImage(path("in.png"));
  { std::ofstream(path("my\nfilter.json")) << R"({"matrix": [[1]], "matrix": [[2]]})"; }
  const Result r = cli({"apply", path("in.png").string(), "-o", path("out.png").string(), "-f",
                        path("my\nfilter.json").string()});
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_NE(r.err.find("my\\nfilter.json"), std::string::npos) << r;
  EXPECT_EQ(r.err.find("my\nfilter"), std::string::npos) << "printed raw\n" << r;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r;
}

// apply's own lines name files escaped too: a `wrote` line on stdout, a failure on stderr. The files keep
// their real names; only what is printed is escaped.
TEST_F(ApplyBatch, NewlinesInBatchFileNamesArePrintedEscaped) {
  fs::create_directories(path("in"));
  writeImage(path("in/new\nline.png"));
  { std::ofstream(path("in/bad\nname.png")) << "not an image"; }
  const Result r = apply({path("in").string(), "-o", path("out/").string()});
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_TRUE(fs::exists(path("out/new\nline.png"))) << r;
  EXPECT_NE(r.out.find("wrote " + path("out").string() + "/new\\nline.png"), std::string::npos) << r;
  EXPECT_NE(r.err.find("bad\\nname.png"), std::string::npos) << r;
  for (const std::string raw : {"new\nline", "bad\nname"}) {
    EXPECT_EQ(r.out.find(raw), std::string::npos) << "printed raw on stdout\n" << r;
    EXPECT_EQ(r.err.find(raw), std::string::npos) << "printed raw on stderr\n" << r;
  }
}

TEST_F(ApplyBatch, MaxPixelsIsCheckedFromTheHeaderBeforeDecoding) {
  // A PNG whose header declares 30000x30000 (grey, 8-bit), then an empty IDAT: a decoder would allocate
  // 900 MB before finding out. The header alone must be enough to refuse it.
  std::string png = "\x89PNG\r\n\x1a\n";
  auto chunk = [&](const std::string& type, const std::string& data) {
    const auto be32 = [](std::uint32_t v) {
      return std::string{char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    };
    std::uint32_t crc = 0xffffffffu;  // CRC-32 of type + data, as libpng checks it
    for (unsigned char c : type + data) {
      crc ^= c;
      for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    png += be32(static_cast<std::uint32_t>(data.size())) + type + data + be32(~crc);
  };
  chunk("IHDR", std::string("\x00\x00\x75\x30\x00\x00\x75\x30\x08\x00\x00\x00\x00", 13));
  chunk("IDAT", std::string("\x78\x9c\x03\x00\x00\x00\x00\x01", 8));
  chunk("IEND", "");
  { std::ofstream(path("big.png"), std::ios::binary) << png; }
  const auto t0 = Clock::now();
  const Result r = apply({path("big.png").string(), "-o", path("out.png").string(), "--max-pixels", "1000"});
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_NE(r.err.find("30000x30000"), std::string::npos) << r;
  EXPECT_NE(r.err.find("header"), std::string::npos) << "refused from the header, not after decoding\n" << r;
  EXPECT_LT(seconds, 10.0);
  EXPECT_FALSE(fs::exists(path("out.png")));
}

}  // namespace
