// SPDX-License-Identifier: MIT
// The video job's constant border (issue 34.12): frames stay in OpenCV's BGR order, so the job reverses the
// filter's channels, and the border colour's with them. Each written frame is checked against the CPU
// reference of the filter on the decoded input frame in RGB, so a border colour in the wrong order (red's
// value painted into blue's edge) shows in the first row and column.
#include <gtest/gtest.h>

#include <filesystem>
#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

#include "convolab/reference.hpp"
#include "cv/mat_adapter.hpp"
#include "jobs/video_job.hpp"
#include "scratch_folder_test.hpp"

namespace convolab::jobs {
namespace {

namespace fs = std::filesystem;

/// Each output pixel is the input one up and to the left (per channel a different weight), so the first row
/// and column are the border colour weighted: R 250, G 10 × 0.5, B 90.
FilterSet shiftWithConstantBorder() {
  std::array<ChannelFilter, kChannels> channels;
  const double weights[] = {1.0, 0.5, 1.0};
  for (int c = 0; c < kChannels; ++c) {
    ChannelFilter f = ChannelFilter::identity(3);
    f.matrix.assign(9, 0.0);
    f.matrix[0] = weights[c];
    channels[static_cast<size_t>(c)] = f;
  }
  return FilterSet::make(channels, BorderMode::Constant, {250, 10, 90});
}

class VideoJobBorder : public test::ScratchFolderTest {};

TEST_F(VideoJobBorder, TheConstantBorderColourKeepsItsChannelsInEveryFrame) {
  const fs::path clip = fs::path(CONVOLAB_VIDEO_DATA) / "odd_65x49.mkv";  // FFV1, lossless: exact compare
  VideoJobOptions o;
  o.input = clip;
  o.output = m_dir / "out.mkv";
  o.chain = shiftWithConstantBorder();
  o.strategy = "naive";
  o.context = std::make_shared<Context>(std::string());
  const VideoJobResult r = runVideoJob(o);
  ASSERT_FALSE(r.stopped);
  ASSERT_EQ(r.frames, 4);

  cv::VideoCapture in(clip.string(), cv::CAP_FFMPEG), out(o.output.string(), cv::CAP_FFMPEG);
  cv::Mat a, b;
  int frames = 0;
  while (in.read(a)) {
    ASSERT_TRUE(out.read(b)) << "frame " << frames;
    Image input, written, expected(a.cols, a.rows);
    opencv::imageFromMat(a, input);
    opencv::imageFromMat(b(cv::Rect(0, 0, a.cols, a.rows)), written);  // without the even-size padding
    referenceConvolve(input.view(), expected.mutableView(), shiftWithConstantBorder());
    const std::uint8_t* corner = written.view().row(0);
    EXPECT_EQ(corner[0], 250) << "red edge, frame " << frames;
    EXPECT_EQ(corner[1], 5) << "green edge, frame " << frames;
    EXPECT_EQ(corner[2], 90) << "blue edge, frame " << frames;
    EXPECT_EQ(cv::norm(opencv::asMat(written), opencv::asMat(expected), cv::NORM_INF), 0)
        << "frame " << frames;
    ++frames;
  }
  EXPECT_EQ(frames, 4);
}

}  // namespace
}  // namespace convolab::jobs
