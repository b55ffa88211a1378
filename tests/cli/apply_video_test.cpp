// SPDX-License-Identifier: MIT
// `convolab-cli apply` on videos whose timing or size is not plain: a variable-rate clip, a clip whose
// timestamps leave gaps, a constant-rate control (each keeps its duration, its frame order and the filter's
// pixels), an odd frame size (kept, padded to even, never misreported) and a size that changes mid-stream.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "convolab/filter_io.hpp"
#include "scratch_folder_test.hpp"

namespace {

using namespace convolab::clitest;
namespace fs = std::filesystem;

const fs::path kSource = CONVOLAB_SOURCE_DIR;
const fs::path kVideos = kSource / "tests/data/video";
const fs::path kSharpen = kSource / "resources/presets/sharpen.json";

/// A decoded frame and its presentation time, read with OpenCV directly (not through ConvoLab's reader).
struct TimedMat {
  cv::Mat bgr;
  double ms = 0;
};

std::vector<TimedMat> decodeAll(const fs::path& p, double* fps = nullptr) {
  cv::VideoCapture c(p.string(), cv::CAP_FFMPEG);
  EXPECT_TRUE(c.isOpened()) << p;
  if (fps) *fps = c.get(cv::CAP_PROP_FPS);
  std::vector<TimedMat> frames;
  cv::Mat m;
  while (c.read(m)) frames.push_back({m.clone(), c.get(cv::CAP_PROP_POS_MSEC)});
  return frames;
}

class ApplyVideo : public convolab::test::ScratchFolderTest {
 protected:
  Result apply(const fs::path& in, const fs::path& out) {
    return runProgram(CONVOLAB_CLI_PATH,
                      {"apply", "-s", "naive", "-f", kSharpen.string(), in.string(), "-o", out.string()},
                      m_dir / "logs");
  }
  /// Files in the test's folder (outputs and any temporary left behind; folders aside).
  int files() const {
    int n = 0;
    for (const auto& e : fs::directory_iterator(m_dir)) n += e.is_regular_file();
    return n;
  }

  /// Runs apply on `in` and checks the output against the input's own timestamps: constant rate at the
  /// input's nominal rate, `declaredFrames` long (± one frame), output frame k = the filtered input frame
  /// on screen at k / fps (the last whose time rounds to k or less), ±1 of OpenCV's filter2D.
  void expectKeepsTime(const fs::path& in, int declaredFrames, Result* result = nullptr) {
    const Result r = apply(in, path("out.mkv"));
    ASSERT_EQ(r.code, 0) << r;
    if (result) *result = r;
    double fps = 0;
    const auto input = decodeAll(in, &fps);
    ASSERT_GT(fps, 0);
    for (std::size_t i = 1; i < input.size(); ++i)  // the clip's frames can be told apart
      ASSERT_GT(maxAbsDiff(input[i].bgr, input[i - 1].bgr), 2) << "input frames " << i - 1 << " and " << i;
    double outFps = 0;
    const auto output = decodeAll(path("out.mkv"), &outFps);
    EXPECT_NEAR(outFps, fps, 1e-6);
    const double interval = 1000.0 / fps;
    const double inDuration = declaredFrames * interval, outDuration = output.size() * interval;
    EXPECT_NEAR(outDuration, inDuration, interval) << output.size() << " frames written";
    const auto filter = convolab::loadFilterFile(kSharpen);
    std::size_t source = 0;
    for (std::size_t k = 0; k < output.size(); ++k) {
      while (source + 1 < input.size() &&
             std::llround((input[source + 1].ms - input[0].ms) / interval) <= static_cast<long long>(k))
        ++source;
      ASSERT_EQ(output[k].bgr.size(), input[source].bgr.size());
      EXPECT_LE(maxAbsDiff(output[k].bgr, expectedBgr(input[source].bgr, filter)), 1)
          << "output frame " << k << " should show input frame " << source << " (" << input[source].ms
          << " ms)";
    }
    EXPECT_EQ(files(), 1) << "the output, no temporary";
  }
};

TEST_F(ApplyVideo, VariableRateClipKeepsItsDurationAndOrder) {
  Result r;
  expectKeepsTime(kVideos / "variable_rate.mkv", 30, &r);  // 20 frames over 3.0 s at a nominal 10 fps
  EXPECT_NE(r.out.find("30 frames at 10 fps = 3 s"), std::string::npos) << r;
  EXPECT_NE(r.out.find("decoded 20 of 30 declared frames"), std::string::npos) << r;
  EXPECT_NE(r.out.find("2 dropped"), std::string::npos) << "5 frames within 0.2 s: 3 kept\n" << r;
}

TEST_F(ApplyVideo, ClipWithTimestampGapsRepeatsFramesToKeepItsDuration) {
  Result r;
  expectKeepsTime(kVideos / "gaps.avi", 21, &r);  // 12 frames over 2.1 s
  EXPECT_NE(r.out.find("decoded 12 of 21 declared frames; 9 written again"), std::string::npos) << r;
}

TEST_F(ApplyVideo, ConstantRateClipIsWrittenFrameForFrame) {
  fs::create_directories(path("in"));
  cv::VideoWriter writer(path("in/cfr.mkv").string(), cv::CAP_FFMPEG,
                         cv::VideoWriter::fourcc('F', 'F', 'V', '1'), 25, cv::Size(48, 32));
  ASSERT_TRUE(writer.isOpened());
  cv::RNG rng(5);
  cv::Mat frame(32, 48, CV_8UC3);
  for (int i = 0; i < 12; ++i) {
    rng.fill(frame, cv::RNG::UNIFORM, 0, 256);
    writer.write(frame);
  }
  writer.release();
  Result r;
  expectKeepsTime(path("in/cfr.mkv"), 12, &r);
  EXPECT_NE(r.out.find("12 frames at 25 fps"), std::string::npos) << r;
  EXPECT_EQ(r.out.find("declared"), std::string::npos) << "nothing to explain on a plain clip\n" << r;
}

TEST_F(ApplyVideo, OddFrameSizeIsPaddedToEvenAndReportedAsWritten) {
  for (const std::string ext : {".mkv", ".avi", ".mp4"}) {
    const fs::path out = path("odd" + ext);
    const Result r = apply(kVideos / "odd_65x49.mkv", out);
    ASSERT_EQ(r.code, 0) << r;
    cv::VideoCapture c(out.string(), cv::CAP_FFMPEG);
    cv::Mat got;
    ASSERT_TRUE(c.read(got)) << ext;
    EXPECT_EQ(got.cols, 66) << ext;
    EXPECT_EQ(got.rows, 50) << ext;
    EXPECT_NE(r.out.find("(66x50,"), std::string::npos) << "the size written, not the input's\n" << r;
    EXPECT_NE(r.err.find("65x49: written as 66x50"), std::string::npos) << "says so\n" << r;
    if (ext == ".mkv") {  // lossless: every input pixel is there, the padding repeats the last column / row
      const auto input = decodeAll(kVideos / "odd_65x49.mkv");
      const cv::Mat want = expectedBgr(input.front().bgr, convolab::loadFilterFile(kSharpen));
      EXPECT_LE(maxAbsDiff(got(cv::Rect(0, 0, 65, 49)), want), 1);
      EXPECT_LE(maxAbsDiff(got.col(65).rowRange(0, 49), want.col(64)), 1);
      EXPECT_LE(maxAbsDiff(got.row(49).colRange(0, 65), want.row(48)), 1);
    }
  }
}

TEST_F(ApplyVideo, FrameSizeChangingMidStreamFailsTheFileWithExit3) {
  const Result r = apply(kVideos / "size_change.avi", path("out.mkv"));
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_NE(r.err.find("frame size changes after 3 frames"), std::string::npos) << r;
  EXPECT_EQ(r.err.find("swscaler"), std::string::npos) << "FFmpeg's own complaint is replaced by ours\n" << r;
  EXPECT_FALSE(fs::exists(path("out.mkv")));
  EXPECT_EQ(files(), 0) << "no temporary left";
}

// Issue 34.7: smaller or wider is refused as taller is (OpenCV hands out such frames at the first size,
// garbage in part: FrameSizeWatch reads the size each packet declares). Raw Motion-JPEG, three JPEGs of 64x48
// then three of the other size, named .avi (`apply` takes a video by its extension, FFmpeg by its content).
TEST_F(ApplyVideo, AFrameThatShrinksOrWidensFailsTheFileWithExit3) {
  for (const cv::Size then : {cv::Size(32, 24), cv::Size(128, 48)}) {
    const fs::path clip = path("changes.avi");
    {
      std::ofstream out(clip, std::ios::binary);
      for (int k = 0; k < 6; ++k) {
        std::vector<uchar> jpeg;
        ASSERT_TRUE(cv::imencode(
            ".jpg", cv::Mat(k < 3 ? cv::Size(64, 48) : then, CV_8UC3, cv::Scalar::all(40 * k)), jpeg));
        out.write(reinterpret_cast<const char*>(jpeg.data()), static_cast<std::streamsize>(jpeg.size()));
      }
    }
    const Result r = apply(clip, path("out.mkv"));
    EXPECT_EQ(r.code, 3) << r;
    const std::string change = "frame size changes after 3 frames (from 64x48 to " +
                               std::to_string(then.width) + "x" + std::to_string(then.height) + ")";
    EXPECT_NE(r.err.find(change), std::string::npos) << r;
    EXPECT_FALSE(fs::exists(path("out.mkv")));
    EXPECT_EQ(files(), 1) << "the clip alone: no output, no temporary";
  }
}

// Issue 34.12: an existing output video is never replaced without --force (exit 3, the file as it was, no
// temporary); with --force it is.
TEST_F(ApplyVideo, AnExistingOutputVideoNeedsForce) {
  writeFile(path("out.mkv"), "the user's own video");
  const Result r = apply(kVideos / "gaps.avi", path("out.mkv"));
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_NE(r.err.find("already exists"), std::string::npos) << r;
  EXPECT_EQ(readFile(path("out.mkv")), "the user's own video");
  EXPECT_EQ(files(), 1) << "no temporary";
  const Result forced =
      runProgram(CONVOLAB_CLI_PATH,
                 {"apply", "-s", "naive", "-f", kSharpen.string(), (kVideos / "gaps.avi").string(), "-o",
                  path("out.mkv").string(), "--force"},
                 m_dir / "logs");
  ASSERT_EQ(forced.code, 0) << forced;
  EXPECT_GT(decodeAll(path("out.mkv")).size(), 10u);
}

/// Overwrites the 32-bit little-endian value `offset` bytes after each `tag` in `bytes`.
void patchAfter(std::string& bytes, const std::string& tag, std::size_t offset, std::uint32_t value) {
  for (auto at = bytes.find(tag); at != std::string::npos; at = bytes.find(tag, at + 1))
    for (int b = 0; b < 4; ++b) bytes[at + offset + b] = static_cast<char>((value >> (8 * b)) & 0xff);
}

// Issue 34.7: a video that declares 10⁸ frames (AVI header and stream length patched) but holds 3 is written
// bounded by what was decoded: the last frame lasts at most 10 s (100 frames at 10 fps), and the summary says
// how much was left out. It once wrote until the disk was full.
TEST_F(ApplyVideo, ADeclaredLengthIsBoundedByWhatWasDecoded) {
  {
    cv::VideoWriter w(path("lie.avi").string(), cv::CAP_OPENCV_MJPEG,
                      cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 10, cv::Size(32, 24));
    ASSERT_TRUE(w.isOpened());
    for (int i = 0; i < 3; ++i) w.write(cv::Mat(24, 32, CV_8UC3, cv::Scalar(40 * i, 80, 200 - 40 * i)));
  }
  std::string bytes = readFile(path("lie.avi"));
  patchAfter(bytes, "avih", 8 + 16, 100'000'000);  // MainAVIHeader.dwTotalFrames
  patchAfter(bytes, "strh", 8 + 32, 100'000'000);  // AVIStreamHeader.dwLength
  writeFile(path("lie.avi"), bytes);
  cv::VideoCapture probe(path("lie.avi").string(), cv::CAP_FFMPEG);
  ASSERT_GT(probe.get(cv::CAP_PROP_FRAME_COUNT), 1e6) << "the patched header is what the decoder reads";
  probe.release();
  const Result r = apply(path("lie.avi"), path("out.mkv"));
  ASSERT_EQ(r.code, 0) << r;
  const auto output = decodeAll(path("out.mkv"));
  EXPECT_GE(output.size(), 3u);
  EXPECT_LE(output.size(), 3u + 100u);
  EXPECT_NE((r.out + r.err).find("left out"), std::string::npos) << r;
}

}  // namespace

// Issue 34.12: the same rule for a video written into a folder (`-o DIR/`), where no check of a single output
// name runs before the job: an existing video there is replaced only with --force.
TEST_F(ApplyVideo, AnExistingVideoInTheOutputFolderNeedsForceToo) {
  fs::create_directory(path("out"));
  writeFile(path("out") / "gaps.avi", "the user's own video");
  const Result r = apply(kVideos / "gaps.avi", path("out").string() + "/");
  EXPECT_NE(r.code, 0) << r;
  EXPECT_NE(r.err.find("exists"), std::string::npos) << r;
  EXPECT_EQ(readFile(path("out") / "gaps.avi"), "the user's own video");
  EXPECT_EQ(std::distance(fs::directory_iterator(path("out")), fs::directory_iterator()), 1)
      << "no temporary";
  const Result forced =
      runProgram(CONVOLAB_CLI_PATH,
                 {"apply", "-s", "naive", "-f", kSharpen.string(), (kVideos / "gaps.avi").string(), "-o",
                  path("out").string() + "/", "--force"},
                 m_dir / "logs");
  ASSERT_EQ(forced.code, 0) << forced;
  EXPECT_GT(decodeAll(path("out") / "gaps.avi").size(), 10u);
}
