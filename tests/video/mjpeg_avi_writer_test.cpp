// SPDX-License-Identifier: MIT
// MJPG in AVI without FFmpeg's encoder: FFmpeg and OpenCV's own AVI reader read every frame back, in order,
// at the rate written, past a RIFF boundary (OpenDML) too; the JPEGs are libjpeg's; a full disk is an error.
#include "capture/mjpeg_avi_writer.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <string>
#include <vector>

#include "capture/even_size_video_writer.hpp"
#include "convolab/error.hpp"
#include "scratch_folder_test.hpp"

namespace convolab::capture {
namespace {

/// Frame i: a smooth gradient whose level steps with i (so frames out of order or repeated show).
cv::Mat frameNumber(int i, cv::Size size) {
  cv::Mat f(size, CV_8UC3);
  for (int y = 0; y < size.height; ++y)
    for (int x = 0; x < size.width; ++x)
      f.at<cv::Vec3b>(y, x) = cv::Vec3b(static_cast<uchar>(i * 7 + x / 4), static_cast<uchar>(40 + i * 5),
                                        static_cast<uchar>(200 - i * 3 - y / 4));
  return f;
}

std::vector<cv::Mat> readAll(const std::filesystem::path& p, int api, double* fps = nullptr) {
  cv::VideoCapture c(p.string(), api);
  if (fps) *fps = c.get(cv::CAP_PROP_FPS);
  std::vector<cv::Mat> frames;
  cv::Mat f;
  while (c.read(f)) frames.push_back(f.clone());
  return frames;
}

std::string bytesOf(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class MjpegAviWriterTest : public test::ScratchFolderTest {
 protected:
  void expectFrames(const std::filesystem::path& p, int api, int n, cv::Size size) {
    const auto got = readAll(p, api);
    ASSERT_EQ(static_cast<int>(got.size()), n) << "api " << api;
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(got[i].size(), size);
      EXPECT_GT(cv::PSNR(got[i], frameNumber(i, size)), 35) << "frame " << i << ", api " << api;
    }
  }
};

TEST_F(MjpegAviWriterTest, FfmpegAndOpenCvReadEveryFrameBackInOrderAtTheRateWritten) {
  const cv::Size size(64, 48);
  const auto path = m_dir / "v.avi";
  {
    MjpegAviWriter w;
    ASSERT_TRUE(w.open(path, 25, size));
    for (int i = 0; i < 12; ++i) w.write(frameNumber(i, size));
  }  // the destructor closes it
  double fps = 0;
  EXPECT_EQ(readAll(path, cv::CAP_FFMPEG, &fps).size(), 12u);
  EXPECT_DOUBLE_EQ(fps, 25);
  expectFrames(path, cv::CAP_FFMPEG, 12, size);
  expectFrames(path, cv::CAP_OPENCV_MJPEG, 12, size);  // reads idx1, the AVI 1.0 index
  const std::string bytes = bytesOf(path);
  EXPECT_NE(bytes.find("JFIF"), std::string::npos);
  EXPECT_EQ(bytes.find("Lavc"), std::string::npos) << "FFmpeg's encoder signs its JPEGs; libjpeg does not";
}

TEST_F(MjpegAviWriterTest, PastOneRiffTheFramesGoOnInAvixRiffsThatFfmpegReads) {
  const cv::Size size(64, 48);
  const auto path = m_dir / "big.avi";
  MjpegAviWriter w(4096);  // a new RIFF every ~4 KB: every two or three frames
  ASSERT_TRUE(w.open(path, 30000.0 / 1001, size));
  for (int i = 0; i < 20; ++i) w.write(frameNumber(i, size));
  w.release();
  const std::string bytes = bytesOf(path);
  std::size_t riffs = 0;
  for (auto at = bytes.find("AVIX"); at != std::string::npos; at = bytes.find("AVIX", at + 4)) ++riffs;
  EXPECT_GE(riffs, 4u);
  double fps = 0;
  EXPECT_EQ(readAll(path, cv::CAP_FFMPEG, &fps).size(), 20u);
  EXPECT_NEAR(fps, 30000.0 / 1001, 1e-6);
  expectFrames(path, cv::CAP_FFMPEG, 20, size);
}

TEST_F(MjpegAviWriterTest, AFullDiskIsAnErrorNotAShortFile) {
  MjpegAviWriter w;
  try {
    ASSERT_TRUE(w.open("/dev/full", 30, {640, 480}));
    for (int i = 0; i < 200; ++i) w.write(frameNumber(i, {640, 480}));  // past the 1 MB buffer
    w.release();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write video '/dev/full'"), std::string::npos) << e.what();
  }
}

TEST_F(MjpegAviWriterTest, TheVideoWriterTakesItForMjpgInAviOnly) {
  const cv::Size size(66, 50);
  EvenSizeVideoWriter w;
  ASSERT_TRUE(w.open(m_dir / "a.AVI", "MJPG", 10, {65, 49}));
  for (int i = 0; i < 3; ++i) w.write(frameNumber(i, {65, 49}));
  w.release();
  EXPECT_EQ(bytesOf(m_dir / "a.AVI").find("Lavc"), std::string::npos);
  EXPECT_EQ(readAll(m_dir / "a.AVI", cv::CAP_FFMPEG).size(), 3u);
  EvenSizeVideoWriter m;
  ASSERT_TRUE(m.open(m_dir / "b.mkv", "MJPG", 10, size, {cv::CAP_FFMPEG}));
  for (int i = 0; i < 3; ++i) m.write(frameNumber(i, size));
  m.release();
  EXPECT_NE(bytesOf(m_dir / "b.mkv").find("Lavc"), std::string::npos) << "another container: OpenCV's writer";
}

}  // namespace
}  // namespace convolab::capture
