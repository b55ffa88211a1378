// SPDX-License-Identifier: MIT
// The app's video source on a 30 fps clip (issue 34.12: every committed clip is 10 fps, where frame times are
// whole multiples of 100 ms). A container keeps whole milliseconds, so frame k is stored at k × 33.33 ms
// rounded (33, 67, 100, …): its position must still be k, in order and after a seek, and the clip's length 30
// frames.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <opencv2/videoio.hpp>

#include "capture/video_file_source.hpp"

namespace convolab::capture {
namespace {

class ThirtyFpsClip : public ::testing::Test {
 protected:
  void SetUp() override {
    m_path = std::filesystem::temp_directory_path() /
             ("convolab-30fps-source-" + std::to_string(::getpid()) + ".mkv");
    cv::VideoWriter writer(m_path.string(), cv::CAP_FFMPEG, cv::VideoWriter::fourcc('F', 'F', 'V', '1'), 30,
                           cv::Size(16, 8));
    ASSERT_TRUE(writer.isOpened());
    for (int i = 0; i < kFrames; ++i) writer.write(cv::Mat(8, 16, CV_8UC3, cv::Scalar(i * 8, 0, 0)));
  }
  void TearDown() override { std::filesystem::remove(m_path); }

  static constexpr int kFrames = 30;
  std::filesystem::path m_path;
};

/// Which frame `frame` shows: its blue counts the frame (the source delivers RGB).
int frameNumber(const Frame& frame) {
  return frame.image ? frame.image->view().row(4)[8 * 3 + 2] / 8 : -1;
}

TEST_F(ThirtyFpsClip, EachFramesPositionIsItsNumber) {
  VideoFileSource source(m_path);
  source.open();
  EXPECT_EQ(source.frameCount(), kFrames);
  Frame frame;
  for (int k = 0; k < kFrames; ++k) {
    ASSERT_TRUE(source.read(frame)) << k;
    EXPECT_EQ(frameNumber(frame), k);
    EXPECT_EQ(source.position(), k) << "frame " << k << " at " << source.positionMs() << " ms";
    EXPECT_NEAR(source.positionMs(), k * 1000.0 / 30, 0.5) << k;
  }
}

TEST_F(ThirtyFpsClip, ASeekToAFrameShowsItAndReportsIt) {
  VideoFileSource source(m_path);
  source.open();
  Frame frame;
  ASSERT_TRUE(source.read(frame));
  for (int k : {29, 1, 2, 17, 10, 0, 28}) {
    source.seek(k);
    ASSERT_TRUE(source.read(frame)) << k;
    EXPECT_EQ(frameNumber(frame), k) << "seek to " << k;
    EXPECT_EQ(source.position(), k) << "seek to " << k;
  }
}

}  // namespace
}  // namespace convolab::capture
