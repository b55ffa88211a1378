// SPDX-License-Identifier: MIT
// The video file source on a small clip written here with cv::VideoWriter: its frames in order, its length
// and rate, looping at the end, seeking, and the files it refuses.
#include "capture/video_file_source.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <opencv2/videoio.hpp>

#include "cv_test_support.hpp"

namespace convolab::capture {
namespace {

using opencv::test::ScratchDir;

constexpr int kFrames = 12;
constexpr int kStep = 20;  // frame i is uniformly grey at i * kStep

/// A 32×24 MJPEG clip at 10 fps whose frame i is grey level i * kStep.
std::filesystem::path writeClip(const ScratchDir& dir) {
  const auto path = dir / "clip.avi";
  cv::VideoWriter writer(path.string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 10.0, cv::Size(32, 24));
  EXPECT_TRUE(writer.isOpened());
  for (int i = 0; i < kFrames; ++i) writer.write(cv::Mat(24, 32, CV_8UC3, cv::Scalar::all(i * kStep)));
  writer.release();
  return path;
}

double meanLevel(const Frame& frame) {
  const auto& px = frame.image->pixels;
  return std::accumulate(px.begin(), px.end(), 0.0) / static_cast<double>(px.size());
}

TEST(VideoFileSource, ReadsTheClipInOrderThenLoops) {
  ScratchDir dir;
  VideoFileSource source(writeClip(dir));
  EXPECT_EQ(source.description(), "clip.avi");
  source.open();
  EXPECT_EQ(source.frameCount(), kFrames);
  EXPECT_DOUBLE_EQ(source.nominalFps(), 10.0);
  EXPECT_NE(source.deliveredMode().find("32×24"), std::string::npos) << source.deliveredMode();
  Frame frame;
  for (int i = 0; i < kFrames; ++i) {
    ASSERT_TRUE(source.read(frame)) << i;
    EXPECT_EQ(frame.image->width, 32);
    EXPECT_EQ(frame.image->height, 24);
    EXPECT_EQ(source.position(), i);
    EXPECT_NEAR(meanLevel(frame), i * kStep, 6) << i;  // MJPEG is lossy, but not by much on flat grey
  }
  ASSERT_TRUE(source.read(frame));  // the end loops to the start
  EXPECT_EQ(source.position(), 0);
  EXPECT_NEAR(meanLevel(frame), 0, 6);
}

TEST(VideoFileSource, SeeksToAFrame) {
  ScratchDir dir;
  VideoFileSource source(writeClip(dir));
  source.open();
  source.seek(7);
  Frame frame;
  ASSERT_TRUE(source.read(frame));
  EXPECT_EQ(source.position(), 7);
  EXPECT_NEAR(meanLevel(frame), 7 * kStep, 6);
  source.seek(1000);  // clamped to the last frame
  ASSERT_TRUE(source.read(frame));
  EXPECT_EQ(source.position(), kFrames - 1);
}

TEST(VideoFileSource, RefusesMissingUndecodableAndTooLargeFiles) {
  ScratchDir dir;
  EXPECT_THROW(VideoFileSource(dir / "absent.mp4").open(), SourceError);
  const auto junk = dir / "junk.mp4";
  opencv::test::writeBytes(junk, "not a video at all");
  EXPECT_THROW(VideoFileSource(junk).open(), SourceError);
  EXPECT_THROW(VideoFileSource(writeClip(dir), 32 * 24 - 1).open(), SourceError);
}

}  // namespace
}  // namespace convolab::capture
