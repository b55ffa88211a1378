// SPDX-License-Identifier: MIT
// The video job run directly (no CLI process): an odd-sized clip is filtered frame for frame in BGR order and
// padded, never cropped; MJPG into .avi is libjpeg's (not FFmpeg's encoder) and keeps the filtered frames; a
// stop mid-video and a codec it cannot choose leave nothing behind.
#include "jobs/video_job.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>
#include <string>
#include <vector>

#include "convolab/error.hpp"
#include "jobs/mat_recycler.hpp"
#include "odd_clip.hpp"
#include "scratch_folder_test.hpp"

namespace convolab::jobs {
namespace {

namespace fs = std::filesystem;

class VideoJobTest : public test::ScratchFolderTest {
 protected:
  /// R and G pass through, B is 200 everywhere: a job that forgot OpenCV's BGR order would paint red.
  VideoJobOptions options(const std::string& output) {
    ChannelFilter blue = ChannelFilter::identity(1);
    blue.matrix = {0.0};
    blue.offset = 200;
    VideoJobOptions o;
    o.input = kOddClip;
    o.output = m_dir / output;
    o.chain = FilterSet::make({ChannelFilter::identity(1), ChannelFilter::identity(1), blue});
    o.strategy = "naive";
    o.context = std::make_shared<Context>(std::string());
    o.note = [this](const std::string& n) { m_notes.push_back(n); };
    return o;
  }
  /// Files in the scratch folder beside its logs/.
  std::size_t filesLeft() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(m_dir), fs::directory_iterator())) -
           1;
  }
  bool noted(const std::string& part) const {
    for (const std::string& n : m_notes)
      if (n.find(part) != std::string::npos) return true;
    return false;
  }

  std::vector<std::string> m_notes;
};

TEST_F(VideoJobTest, AnOddSizedClipIsFilteredInBgrOrderAndPaddedNotCropped) {
  const VideoJobResult r = runVideoJob(options("out.mkv"));
  EXPECT_FALSE(r.stopped);
  EXPECT_EQ(r.frames, 4);
  EXPECT_EQ(r.decodedFrames, 4);
  EXPECT_EQ(r.width, 66);  // read back from the file
  EXPECT_EQ(r.height, 50);
  EXPECT_EQ(r.codec, "FFV1");
  EXPECT_EQ(r.strategy, "naive");
  EXPECT_TRUE(noted("written as 66x50")) << "says the size changed";
  EXPECT_EQ(filesLeft(), 1u) << "no temporary left";

  cv::VideoCapture in(kOddClip.string(), cv::CAP_FFMPEG), out((m_dir / "out.mkv").string(), cv::CAP_FFMPEG);
  cv::Mat a, b;
  int frames = 0;
  while (in.read(a)) {
    ASSERT_TRUE(out.read(b)) << "frame " << frames;
    ASSERT_EQ(b.size(), cv::Size(66, 50));
    std::vector<cv::Mat> inPlanes, outPlanes;
    cv::split(a, inPlanes);
    cv::split(b(cv::Rect(0, 0, 65, 49)), outPlanes);
    EXPECT_EQ(cv::norm(outPlanes[0], cv::NORM_INF), 200) << "blue is the constant";
    EXPECT_EQ(cv::norm(outPlanes[0], cv::Mat(49, 65, CV_8U, cv::Scalar(200)), cv::NORM_INF), 0);
    EXPECT_EQ(cv::norm(outPlanes[1], inPlanes[1], cv::NORM_INF), 0)
        << "green passes through, frame " << frames;
    EXPECT_EQ(cv::norm(outPlanes[2], inPlanes[2], cv::NORM_INF), 0) << "red passes through, frame " << frames;
    // The padding repeats the last column and row.
    EXPECT_EQ(cv::norm(b.col(65), b.col(64), cv::NORM_INF), 0);
    EXPECT_EQ(cv::norm(b.row(49), b.row(48), cv::NORM_INF), 0);
    ++frames;
  }
  EXPECT_EQ(frames, 4);
  EXPECT_FALSE(out.read(b)) << "output has more frames";
}

TEST_F(VideoJobTest, MjpgIntoAviIsEncodedByLibjpegAndKeepsTheFilteredFrames) {
  const VideoJobResult r = runVideoJob(options("out.avi"));
  EXPECT_EQ(r.frames, 4);
  EXPECT_EQ(r.codec, "MJPG");
  EXPECT_EQ(r.width, 66);
  EXPECT_EQ(r.height, 50);
  std::ifstream file(m_dir / "out.avi", std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  EXPECT_EQ(bytes.find("Lavc"), std::string::npos)
      << "FFmpeg's mjpeg encoder signs its JPEGs; libjpeg does not";
  cv::VideoCapture in(kOddClip.string(), cv::CAP_FFMPEG), out((m_dir / "out.avi").string(), cv::CAP_FFMPEG);
  cv::Mat a, b;
  int frames = 0;
  while (in.read(a)) {
    ASSERT_TRUE(out.read(b)) << "frame " << frames;
    std::vector<cv::Mat> inPlanes, outPlanes;
    cv::split(a, inPlanes);
    cv::split(b(cv::Rect(0, 0, 65, 49)), outPlanes);
    EXPECT_NEAR(cv::mean(outPlanes[0])[0], 200, 4) << "blue is the constant, frame " << frames;
    for (int c : {1, 2})  // lossy, but the frame the filter made (not red, not the input's blue)
      EXPECT_NEAR(cv::mean(outPlanes[c])[0], cv::mean(inPlanes[c])[0], 4)
          << "plane " << c << ", frame " << frames;
    ++frames;
  }
  EXPECT_EQ(frames, 4);
  EXPECT_FALSE(out.read(b)) << "output has more frames";
}

TEST(DecodeAhead, AsManyFramesAs192MbHoldBetweenFourAndSixtyFour) {
  EXPECT_EQ(decodeAheadFrames({1920, 1080}), 32u);
  EXPECT_EQ(decodeAheadFrames({3840, 2160}), 8u);
  EXPECT_EQ(decodeAheadFrames({7680, 4320}), 4u) << "at least the four it always had";
  EXPECT_EQ(decodeAheadFrames({65, 49}), 64u);
}

TEST(MatRecycler, ReusesABufferOnceNobodyHoldsItAndNeverOneThatIsHeld) {
  MatRecycler r(2);
  cv::Mat a = r.take({64, 48}, CV_8UC3);
  const uchar* first = a.data;
  cv::Mat b = r.take({64, 48}, CV_8UC3);
  EXPECT_NE(b.data, first) << "a is still held";
  a.release();
  cv::Mat c = r.take({64, 48}, CV_8UC3);
  EXPECT_EQ(c.data, first) << "a's buffer, let go of, is reused";
  cv::Mat d = r.take({32, 48}, CV_8UC3);
  EXPECT_NE(d.data, first);
  EXPECT_EQ(d.size(), cv::Size(32, 48)) << "another size is a new buffer";
}

TEST_F(VideoJobTest, AStopMidVideoDiscardsTheOutput) {
  std::atomic<bool> stop{false};
  VideoJobOptions o = options("out.mkv");
  o.stop = &stop;
  o.progress = [&stop](std::int64_t done, std::int64_t) {
    if (done == 2) stop = true;
  };
  const VideoJobResult r = runVideoJob(o);
  EXPECT_TRUE(r.stopped);
  EXPECT_GE(r.frames, 2);
  EXPECT_LT(r.frames, 4);
  EXPECT_EQ(filesLeft(), 0u) << "neither the output nor its temporary";
}

TEST_F(VideoJobTest, AnOutputWithNoKnownCodecIsAUsageErrorBeforeAnyWork) {
  try {
    runVideoJob(options("out.xyz"));
    FAIL() << "no codec for .xyz";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("--codec"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(m_notes.empty()) << "the input was not opened";
  EXPECT_EQ(filesLeft(), 0u);
}

}  // namespace
}  // namespace convolab::jobs
