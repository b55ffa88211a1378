// SPDX-License-Identifier: MIT
// The app's video source on clips with uneven time: positions and length in frame intervals of the nominal
// rate (so the seek bar and the status bar agree with the clip's duration), seeking by time, looping, and a
// one-frame clip that loops as a still instead of failing and being reopened.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <opencv2/videoio.hpp>

#include "capture/video_file_source.hpp"
#include "video_data.hpp"

namespace convolab::capture {
namespace {

TEST(VideoFileSourceTiming, PositionsCountFrameIntervalsOfTheNominalRate) {
  VideoFileSource source(kVideos / "variable_rate.mkv");
  source.open();
  EXPECT_EQ(source.frameCount(), 30);  // 3.0 s at 10 fps, though 20 frames decode
  EXPECT_DOUBLE_EQ(source.durationMs(), 3000);
  Frame frame;
  std::int64_t last = -1;
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(source.read(frame)) << i;
    EXPECT_GE(source.position(), last) << i;
    last = source.position();
  }
  EXPECT_EQ(source.position(), 29);
  EXPECT_NEAR(source.positionMs(), 2900, 1);
  source.seek(25);  // frame interval 25 = 2.5 s: the frame shown then
  ASSERT_TRUE(source.read(frame));
  EXPECT_NEAR(source.positionMs(), 2500, 1);
  EXPECT_EQ(source.position(), 25);
  source.seekMs(2000);  // inside the gap: the frame before it stays on screen
  ASSERT_TRUE(source.read(frame));
  EXPECT_NEAR(source.positionMs(), 1160, 1);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(source.read(frame));
  ASSERT_TRUE(source.read(frame));  // past the end: loops to the start
  EXPECT_DOUBLE_EQ(source.positionMs(), 0);
  EXPECT_EQ(source.position(), 0);
}

TEST(VideoFileSourceTiming, AOneFrameClipLoopsAsAStill) {
  std::string dir = (std::filesystem::temp_directory_path() / "convolab-one-frame-XXXXXX").string();
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  const auto clip = std::filesystem::path(dir) / "one.mkv";
  {
    cv::VideoWriter writer(clip.string(), cv::CAP_FFMPEG, cv::VideoWriter::fourcc('F', 'F', 'V', '1'), 25,
                           cv::Size(32, 24));
    ASSERT_TRUE(writer.isOpened());
    writer.write(cv::Mat(24, 32, CV_8UC3, cv::Scalar(10, 20, 30)));
  }
  VideoFileSource source(clip);
  source.open();
  Frame frame;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 10; ++i) {
    // A failed read makes the capture thread close the source and reopen it a second later: the app showed
    // one frame a second.
    ASSERT_TRUE(source.read(frame)) << "read " << i;
    EXPECT_EQ(frame.image->width, 32);
    EXPECT_EQ(source.position(), 0);
    // Known only at the clip's end (the second read): from then on it reads as a still image does.
    EXPECT_EQ(source.deliversStill(), i > 0) << "read " << i;
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1.0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace convolab::capture
