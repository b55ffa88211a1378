// SPDX-License-Identifier: MIT
// VideoReader: each frame's time from the decoder, what the container declares, seeking by time to the frame
// on screen, and a frame size that changes mid-stream (refused, never a frozen frame).
#include "capture/video_reader.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <opencv2/videoio.hpp>
#include <vector>

#include "capture/frame_source.hpp"
#include "video_data.hpp"

namespace convolab::capture {
namespace {

/// The times of variable_rate.mkv (tests/data/video/README.md): 10 frames 0.1 s apart, 5 at 0.04 s, a gap,
/// 5 at 0.1 s (the decoder rounds to the container's millisecond).
const std::vector<double> kVariableRateMs = {0,    100,  200,  300,  400,  500,  600,  700,  800,  900,
                                             1000, 1040, 1080, 1120, 1160, 2500, 2600, 2700, 2799, 2900};

std::vector<double> readTimes(VideoReader& reader) {
  std::vector<double> times;
  cv::Mat frame;
  while (reader.read(frame)) times.push_back(reader.timestampMs());
  return times;
}

TEST(VideoReader, ReportsEachFramesTimeAndWhatTheContainerDeclares) {
  VideoReader reader(kVideos / "variable_rate.mkv");
  EXPECT_EQ(reader.info().width, 64);
  EXPECT_EQ(reader.info().height, 48);
  EXPECT_DOUBLE_EQ(reader.info().nominalFps, 10);
  EXPECT_EQ(reader.info().declaredFrames, 30);
  EXPECT_DOUBLE_EQ(reader.info().durationMs(), 3000);
  EXPECT_DOUBLE_EQ(reader.timestampMs(), -1);
  const auto times = readTimes(reader);
  ASSERT_EQ(times.size(), kVariableRateMs.size());
  for (std::size_t i = 0; i < times.size(); ++i) EXPECT_NEAR(times[i], kVariableRateMs[i], 1) << i;
  EXPECT_EQ(reader.framesRead(), 20);
}

TEST(VideoReader, GapsKeepTheirTimesAndTheDeclaredLength) {
  VideoReader reader(kVideos / "gaps.avi");
  EXPECT_EQ(reader.info().declaredFrames, 21);
  EXPECT_DOUBLE_EQ(reader.info().durationMs(), 2100);
  const auto times = readTimes(reader);
  const std::vector<double> want = {0, 100, 200, 300, 1000, 1100, 1200, 1300, 1400, 1800, 1900, 2000};
  ASSERT_EQ(times.size(), want.size());
  for (std::size_t i = 0; i < times.size(); ++i) EXPECT_NEAR(times[i], want[i], 1) << i;
}

TEST(VideoReader, SeeksByTimeToTheFrameOnScreen) {
  VideoReader reader(kVideos / "variable_rate.mkv");
  cv::Mat frame;
  // target ms → the frame shown then: the last one whose time is ≤ the target
  const std::vector<std::pair<double, double>> cases = {{2550, 2500}, {1050, 1040}, {0, 0},     {2000, 1160},
                                                        {5000, 2900}, {950, 900},   {960, 900}, {2600, 2600}};
  for (const auto& [target, shown] : cases) {
    reader.seekMs(target);
    ASSERT_TRUE(reader.read(frame)) << target;
    EXPECT_NEAR(reader.timestampMs(), shown, 1) << "seek to " << target;
    if (shown < 2900) {  // and the clip goes on from there, in order
      ASSERT_TRUE(reader.read(frame)) << target;
      EXPECT_GT(reader.timestampMs(), shown + 1) << "after a seek to " << target;
    }
  }
}

// Issue 34.12: a 30 fps clip, whose frame times are not whole milliseconds (the container keeps 0, 33, 67,
// 100 …): seeking to each frame's exact time (k × 33.33… ms) shows frame k, never the one before, and a time
// just before the next frame still shows it. Every test clip was 10 fps.
TEST(VideoReader, SeeksInAThirtyFpsClipToEachFrame) {
  const auto path =
      std::filesystem::temp_directory_path() / ("convolab-30fps-" + std::to_string(::getpid()) + ".mkv");
  constexpr int kFrames = 30;
  {
    cv::VideoWriter writer(path.string(), cv::CAP_FFMPEG, cv::VideoWriter::fourcc('F', 'F', 'V', '1'), 30,
                           cv::Size(16, 8));
    ASSERT_TRUE(writer.isOpened());
    for (int i = 0; i < kFrames; ++i) writer.write(cv::Mat(8, 16, CV_8UC3, cv::Scalar(i * 8, 0, 0)));
  }
  VideoReader reader(path);
  EXPECT_DOUBLE_EQ(reader.info().nominalFps, 30);
  cv::Mat frame;
  const auto shown = [&](double ms) {
    reader.seekMs(ms);
    EXPECT_TRUE(reader.read(frame)) << ms;
    return frame.empty() ? -1 : frame.at<cv::Vec3b>(4, 8)[0] / 8;
  };
  for (int k = kFrames - 1; k >= 0; k -= 3) EXPECT_EQ(shown(k * 1000.0 / 30), k) << "seek to frame " << k;
  for (int k = 0; k < kFrames - 1; k += 4)
    EXPECT_EQ(shown((k + 1) * 1000.0 / 30 - 2), k) << "just before " << k + 1;
  std::filesystem::remove(path);
}

TEST(VideoReader, RewindStartsOver) {
  VideoReader reader(kVideos / "odd_65x49.mkv");
  cv::Mat frame;
  EXPECT_EQ(readTimes(reader).size(), 4u);
  reader.rewind();
  ASSERT_TRUE(reader.read(frame));
  EXPECT_DOUBLE_EQ(reader.timestampMs(), 0);
  EXPECT_EQ(frame.cols, 65);
  EXPECT_EQ(frame.rows, 49);
}

TEST(VideoReader, AFrameSizeChangeIsRefusedNotFrozen) {
  // Refused ahead of the decoder (it holds packets beyond the frame it delivers), so before any of the 64x48
  // frames would come, frozen: here at the first read.
  VideoReader reader(kVideos / "size_change.avi");
  cv::Mat frame;
  int delivered = 0;
  try {
    while (reader.read(frame)) ++delivered;
    FAIL() << "the fourth frame is 64x48: OpenCV would hand out the third again";
  } catch (const SourceError& e) {
    EXPECT_NE(std::string(e.what()).find("frame size changes after 3 frames (from 32x24 to 64x48)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_LE(delivered, 3);
}

TEST(VideoReader, RefusesWhatIsNotAVideo) {
  EXPECT_THROW(VideoReader(kVideos / "no-such-clip.mkv"), SourceError);
  EXPECT_THROW(VideoReader(kVideos / "README.md"), SourceError);
  EXPECT_THROW(VideoReader(kVideos / "variable_rate.mkv", 1000), SourceError);  // 64×48 > 1000 pixels
}

}  // namespace
}  // namespace convolab::capture
