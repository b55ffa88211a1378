// SPDX-License-Identifier: MIT
// The one video writer of the recorder and the video job: odd frames gain a column / row repeating their
// neighbour (OpenCV's writer would crop them), even frames pass untouched.
#include "capture/even_size_video_writer.hpp"

#include <gtest/gtest.h>

namespace convolab::capture {
namespace {

TEST(EvenSizeVideoWriter, OddSidesAreRoundedUpAndPaddedByRepeatingTheEdge) {
  EXPECT_EQ(EvenSizeVideoWriter::evenSize({65, 49}), cv::Size(66, 50));
  EXPECT_EQ(EvenSizeVideoWriter::evenSize({64, 48}), cv::Size(64, 48));
  EvenSizeVideoWriter writer;  // padded() needs the frame size only: open it on a path that cannot open
  EXPECT_FALSE(writer.open("/nonexistent-folder/x.avi", "MJPG", 10, {3, 3}));
  EXPECT_EQ(writer.writtenSize(), cv::Size(4, 4));
  cv::Mat frame(3, 3, CV_8UC3);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) frame.at<cv::Vec3b>(y, x) = cv::Vec3b(x * 10, y * 10, 1);
  const cv::Mat out = writer.padded(frame);
  ASSERT_EQ(out.size(), cv::Size(4, 4));
  EXPECT_EQ(cv::norm(out(cv::Rect(0, 0, 3, 3)), frame, cv::NORM_INF), 0) << "no pixel lost or moved";
  EXPECT_EQ(cv::norm(out.col(3), out.col(2), cv::NORM_INF), 0);
  EXPECT_EQ(cv::norm(out.row(3), out.row(2), cv::NORM_INF), 0);
}

TEST(EvenSizeVideoWriter, AnEvenFrameIsNotCopied) {
  EvenSizeVideoWriter writer;
  EXPECT_FALSE(writer.open("/nonexistent-folder/x.avi", "MJPG", 10, {4, 2}));
  const cv::Mat frame(2, 4, CV_8UC3, cv::Scalar(1, 2, 3));
  EXPECT_EQ(writer.padded(frame).data, frame.data);
}

}  // namespace
}  // namespace convolab::capture
