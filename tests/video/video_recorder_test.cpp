// SPDX-License-Identifier: MIT
// The app's recorder keeps every pixel of odd-sized frames: OpenCV's writer needs even sizes, so the frames
// are padded (the last column / row repeated), never cropped.
#include "capture/video_recorder.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

namespace convolab::capture {
namespace {

TEST(VideoRecorder, OddFramesArePaddedNotCropped) {
  std::string dir = (std::filesystem::temp_directory_path() / "convolab-recorder-XXXXXX").string();
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  const auto path = std::filesystem::path(dir) / "rec.avi";
  {
    VideoRecorder recorder(path, 65, 49, 10);
    EXPECT_EQ(recorder.recordedWidth(), 66);
    EXPECT_EQ(recorder.recordedHeight(), 50);
    auto image = std::make_shared<Image>(65, 49);
    for (int y = 0; y < 49; ++y)  // flat grey, with a bright last column and last row
      for (int x = 0; x < 65; ++x)
        for (int c = 0; c < 3; ++c) image->pixels[(y * 65 + x) * 3 + c] = x == 64 || y == 48 ? 250 : 60;
    for (int i = 0; i < 3; ++i) recorder.push(image);
  }
  cv::VideoCapture capture(path.string());
  cv::Mat frame;
  ASSERT_TRUE(capture.read(frame));
  EXPECT_EQ(frame.cols, 66);
  EXPECT_EQ(frame.rows, 50);
  // The input's last column and row are there (cropping lost them), and the padding repeats them.
  EXPECT_GT(cv::mean(frame.col(64).rowRange(0, 40))[0], 200);
  EXPECT_GT(cv::mean(frame.col(65).rowRange(0, 40))[0], 200);
  EXPECT_GT(cv::mean(frame.row(48).colRange(0, 60))[0], 200);
  EXPECT_LT(cv::mean(frame(cv::Rect(8, 8, 40, 30)))[0], 100);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace convolab::capture
