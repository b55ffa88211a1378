// SPDX-License-Identifier: MIT
// A frame size that changes mid-stream, in every direction (issue 34.7). The clips are made here: JPEGs of
// two sizes written one after the other as a raw Motion-JPEG stream (.mjpeg), which FFmpeg's mjpeg demuxer
// reads as one video; two H.264, HEVC or MPEG-2 streams (OpenCV's writer) one after the other, raw; and
// JPEGs muxed into a Matroska file with libavformat, long enough to seek in. OpenCV 4.6 returns every frame
// at the first size whatever the stream says (the pinning test below); VideoReader refuses the change in
// every direction through FrameSizeWatch (docs/RELIABILITY.md, "Videos that lie").
#include <gtest/gtest.h>

extern "C" {
#include <libavformat/avformat.h>
}

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>
#include <vector>

#include "capture/frame_source.hpp"
#include "capture/video_reader.hpp"
#include "scratch_folder_test.hpp"

namespace convolab::capture {
namespace {

namespace fs = std::filesystem;

/// Frame k of a clip: a ramp in x and y whose blue channel counts the frame (BGR).
cv::Mat rampFrame(cv::Size size, int k) {
  cv::Mat m(size, CV_8UC3);
  for (int y = 0; y < size.height; ++y)
    for (int x = 0; x < size.width; ++x)
      m.at<cv::Vec3b>(y, x) =
          cv::Vec3b(static_cast<uchar>(40 * k + 20), static_cast<uchar>(2 * x), static_cast<uchar>(4 * y));
  return m;
}

/// Three frames of `first`, then three of `then`, as one Motion-JPEG stream.
void writeClip(const fs::path& path, cv::Size first, cv::Size then) {
  std::ofstream out(path, std::ios::binary);
  for (int k = 0; k < 6; ++k) {
    std::vector<uchar> jpeg;
    ASSERT_TRUE(
        cv::imencode(".jpg", rampFrame(k < 3 ? first : then, k), jpeg, {cv::IMWRITE_JPEG_QUALITY, 98}));
    out.write(reinterpret_cast<const char*>(jpeg.data()), static_cast<std::streamsize>(jpeg.size()));
  }
}

/// An encoder OpenCV's writer reaches through FFmpeg, and the raw stream's extension.
struct Encoder {
  const char* name;
  const char* extension;
  int fourcc;
};
const Encoder kH264{"H.264 (libx264)", ".h264", cv::VideoWriter::fourcc('H', '2', '6', '4')};
const Encoder kEncoders[] = {
    kH264,
    {"HEVC (libx265)", ".hevc", cv::VideoWriter::fourcc('h', 'e', 'v', '1')},
    {"MPEG-2", ".m2v", cv::VideoWriter::fourcc('m', 'p', 'g', '2')},
};

/// `firstFrames` frames of `first`, then three of `then`, as one raw stream: two streams written by OpenCV's
/// writer, each with its own sequence headers, one after the other. The first stays beside it as
/// `path`.0`extension`, the clean decode of the frames before the change.
void writeEncodedClip(const fs::path& path, const Encoder& encoder, cv::Size first, cv::Size then,
                      int firstFrames = 3) {
  std::ofstream out(path, std::ios::binary);
  for (int part = 0; part < 2; ++part) {
    const fs::path piece = path.string() + "." + std::to_string(part) + encoder.extension;
    const cv::Size size = part == 0 ? first : then;
    {
      cv::VideoWriter writer(piece.string(), cv::CAP_FFMPEG, encoder.fourcc, 10, size);
      ASSERT_TRUE(writer.isOpened()) << "no " << encoder.name << " encoder in this OpenCV/FFmpeg";
      const int frames = part == 0 ? firstFrames : 3;
      for (int k = 0; k < frames; ++k) writer.write(rampFrame(size, (part == 0 ? 0 : firstFrames) + k));
    }
    std::ifstream in(piece, std::ios::binary);
    out << in.rdbuf();
  }
}

/// One JPEG a frame of `sizes`, at 10 fps, muxed as Motion-JPEG into Matroska (libavformat: OpenCV's writer
/// has one size a file).
void writeMkvClip(const fs::path& path, const std::vector<cv::Size>& sizes) {
  AVFormatContext* out = nullptr;
  ASSERT_GE(avformat_alloc_output_context2(&out, nullptr, "matroska", path.c_str()), 0);
  AVStream* stream = avformat_new_stream(out, nullptr);
  ASSERT_NE(stream, nullptr);
  stream->codecpar->codec_type = AVMEDIA_TYPE_VIDEO;
  stream->codecpar->codec_id = AV_CODEC_ID_MJPEG;
  stream->codecpar->width = sizes[0].width;
  stream->codecpar->height = sizes[0].height;
  stream->time_base = {1, 10};
  ASSERT_GE(avio_open(&out->pb, path.c_str(), AVIO_FLAG_WRITE), 0);
  ASSERT_GE(avformat_write_header(out, nullptr), 0);
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    std::vector<uchar> jpeg;
    ASSERT_TRUE(cv::imencode(".jpg", rampFrame(sizes[k], static_cast<int>(k % 6)), jpeg));
    AVPacket* packet = av_packet_alloc();
    ASSERT_GE(av_new_packet(packet, static_cast<int>(jpeg.size())), 0);
    std::memcpy(packet->data, jpeg.data(), jpeg.size());
    packet->pts = packet->dts = av_rescale_q(static_cast<std::int64_t>(k), {1, 10}, stream->time_base);
    packet->duration = av_rescale_q(1, {1, 10}, stream->time_base);
    packet->flags |= AV_PKT_FLAG_KEY;
    EXPECT_GE(av_interleaved_write_frame(out, packet), 0);
    av_packet_free(&packet);
  }
  EXPECT_GE(av_write_trailer(out), 0);
  avio_closep(&out->pb);
  avformat_free_context(out);
}

std::string sizeText(cv::Size s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height);
}

struct SizeChange {
  const char* name;
  cv::Size first, then;
};
const SizeChange kShrinksOrWidens[] = {
    {"shrinks", {64, 48}, {32, 24}},
    {"shorter", {64, 48}, {64, 24}},
    {"narrower", {64, 48}, {32, 48}},
    {"wider", {64, 48}, {128, 48}},
};

// The whole class: every direction, and both dimensions at once each way.
const SizeChange kEveryDirection[] = {
    {"shrinks", {64, 48}, {32, 24}},          {"shorter", {64, 48}, {64, 24}},
    {"narrower", {64, 48}, {32, 48}},         {"wider", {64, 48}, {128, 48}},
    {"taller", {64, 48}, {64, 96}},           {"grows", {32, 24}, {64, 48}},
    {"narrower, taller", {64, 48}, {32, 96}}, {"wider, shorter", {64, 48}, {128, 24}},
};

class FrameSizeChange : public test::ScratchFolderTest {
 protected:
  /// Reads `clip` to its end: it is refused before the fourth frame (the first of the new size) comes, with
  /// both sizes named. Where it is refused is ahead of the decoder (VideoReader: sizeLookaheadFrames), so
  /// on these six-frame clips before the first frame.
  void expectRefusedBeforeTheFourthFrame(const fs::path& clip, const SizeChange& c) {
    SCOPED_TRACE(c.name);
    int delivered = 0;
    try {
      VideoReader reader(clip);
      cv::Mat frame;
      while (reader.read(frame)) {
        EXPECT_EQ(frame.size(), c.first) << "frame " << delivered;
        ++delivered;
      }
      ADD_FAILURE() << "all " << delivered << " frames were delivered, the last three " << sizeText(c.then);
    } catch (const SourceError& e) {
      const std::string expected =
          "frame size changes after 3 frames (from " + sizeText(c.first) + " to " + sizeText(c.then) + ")";
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
      EXPECT_LE(delivered, 3);
    }
  }
};

// What OpenCV 4.6's FFmpeg backend returns after the change: every frame in the first size, with no error and
// no property that moves (CAP_PROP_FRAME_WIDTH/HEIGHT are its own frame's), and the new picture only in part
// of it. Its converter is built from the first frame and rebuilt only when its frame size differs from the
// stream's parameters, which a mid-stream change does not update; the new picture is then scaled with the old
// converter: a shorter one is a valid partial slice (the rows below keep the last frame's bytes), a narrower
// or wider one is read with the old width. FFmpeg logs nothing at warning level or above, so DecoderLogWatch
// (which catches the taller case's "Slice parameters … are invalid") has nothing to catch.
TEST_F(FrameSizeChange, OpenCvKeepsTheFirstSizeWhenTheStreamShrinksOrWidens) {
  for (const SizeChange& c : kShrinksOrWidens) {
    const fs::path clip = path(std::string(c.name) + ".mjpeg");
    writeClip(clip, c.first, c.then);
    cv::VideoCapture capture(clip.string(), cv::CAP_FFMPEG);
    ASSERT_TRUE(capture.isOpened()) << c.name;
    cv::Mat frame, last;
    int frames = 0;
    while (capture.read(frame)) {
      last = frame.clone();
      EXPECT_EQ(frame.size(), c.first) << c.name << ", frame " << frames;
      EXPECT_EQ(capture.get(cv::CAP_PROP_FRAME_WIDTH), c.first.width) << c.name;
      EXPECT_EQ(capture.get(cv::CAP_PROP_FRAME_HEIGHT), c.first.height) << c.name;
      ++frames;
    }
    EXPECT_EQ(frames, 6) << c.name << ": every frame decodes, none is refused";
    // The last frame's top-left corner is the new picture (frame 5's blue), so it was decoded, not dropped.
    ASSERT_FALSE(last.empty()) << c.name;
    EXPECT_NEAR(last.at<cv::Vec3b>(1, 1)[0], 40 * 5 + 20, 6) << c.name;
  }
}

TEST_F(FrameSizeChange, MotionJpegIsRefusedInEveryDirection) {
  for (const SizeChange& c : kEveryDirection) {
    const fs::path clip = path(std::string(c.name) + ".mjpeg");
    writeClip(clip, c.first, c.then);
    expectRefusedBeforeTheFourthFrame(clip, c);
  }
}

TEST_F(FrameSizeChange, H264HevcAndMpeg2AreRefusedInEveryDirection) {
  for (const Encoder& encoder : kEncoders) {
    SCOPED_TRACE(encoder.name);
    for (const SizeChange& c : kEveryDirection) {
      const fs::path clip = path(std::string(c.name) + encoder.extension);
      writeEncodedClip(clip, encoder, c.first, c.then);
      expectRefusedBeforeTheFourthFrame(clip, c);
    }
  }
}

// OpenCV's H.264 path hides the change as its Motion-JPEG one does, six frames at the first size, and worse:
// its frame-threaded decoder has read the new size's packets while it still delivers the old frames, and
// OpenCV converts each with the decoder's latest height, so frames 1 and 2 of a clip that gets shorter come
// out with their lower rows left from an earlier frame.
TEST_F(FrameSizeChange, OpenCvKeepsTheFirstSizeOfAnH264StreamAndGarblesTheFramesBefore) {
  for (const SizeChange& c : kShrinksOrWidens) {
    const fs::path clip = path(std::string(c.name) + ".h264");
    writeEncodedClip(clip, kH264, c.first, c.then);
    cv::VideoCapture capture(clip.string(), cv::CAP_FFMPEG), clean(clip.string() + ".0.h264", cv::CAP_FFMPEG);
    cv::Mat frame, want;
    int frames = 0, garbled = 0;
    while (capture.read(frame)) {
      EXPECT_EQ(frame.size(), c.first) << c.name << ", frame " << frames;
      if (frames++ < 3 && clean.read(want) && cv::norm(frame, want, cv::NORM_INF) > 0) ++garbled;
    }
    EXPECT_EQ(frames, 6) << c.name;
    if (c.then.height < c.first.height && cv::getNumberOfCPUs() > 1) {
      EXPECT_GT(garbled, 0) << c.name;
    }
  }
}

// What VideoReader delivers before it refuses is exact: it checks ahead of the decoder by more than the
// decoder reads ahead, so it refuses before OpenCV garbles the frames just before the change (above). 200
// frames before the change: more than the reach, so some are delivered.
TEST_F(FrameSizeChange, TheFramesDeliveredBeforeTheRefusalAreExact) {
  for (const SizeChange& c : kEveryDirection) {
    SCOPED_TRACE(c.name);
    const fs::path clip = path(std::string(c.name) + ".h264");
    writeEncodedClip(clip, kH264, c.first, c.then, 200);
    cv::VideoCapture clean(clip.string() + ".0.h264", cv::CAP_FFMPEG);
    VideoReader reader(clip);
    cv::Mat frame, want;
    int delivered = 0;
    try {
      while (reader.read(frame)) {
        ASSERT_TRUE(clean.read(want)) << "frame " << delivered << " is past the change";
        ASSERT_EQ(cv::norm(frame, want, cv::NORM_INF), 0) << "frame " << delivered;
        ++delivered;
      }
      ADD_FAILURE() << "not refused";
    } catch (const SourceError& e) {
      EXPECT_NE(std::string(e.what()).find("after 200 frames"), std::string::npos) << e.what();
    }
    EXPECT_GT(delivered, 100);
  }
}

// After the backend's own seek (VideoReader seeks so beyond 2 s) the watch follows: a seek before the change
// plays towards it and is refused before it; a seek past it is refused at once; a clip that keeps its size
// plays to its end either way.
TEST_F(FrameSizeChange, ASeekDoesNotHideTheChange) {
  std::vector<cv::Size> sizes(100, cv::Size(64, 48));
  for (std::size_t k = 80; k < sizes.size(); ++k) sizes[k] = cv::Size(32, 24);
  writeMkvClip(path("shrinks.mkv"), sizes);
  writeMkvClip(path("same.mkv"), std::vector<cv::Size>(100, cv::Size(64, 48)));
  cv::Mat frame;
  for (const double ms : {2500.0, 8500.0}) {
    int delivered = 0;
    EXPECT_THROW(
        {
          VideoReader reader(path("shrinks.mkv"));
          ASSERT_TRUE(reader.read(frame));  // the backend's seek needs the first frame's time
          reader.seekMs(ms);
          while (reader.read(frame)) {
            EXPECT_EQ(frame.size(), cv::Size(64, 48)) << ms << " ms, frame " << delivered;
            ++delivered;
          }
        },
        SourceError)
        << ms;
    EXPECT_LE(delivered, std::max(0, 80 - static_cast<int>(ms / 100))) << ms;
  }
  for (const double ms : {2500.0, 8500.0}) {
    VideoReader reader(path("same.mkv"));
    ASSERT_TRUE(reader.read(frame));
    reader.seekMs(ms);
    int frames = 0;
    while (reader.read(frame)) ++frames;
    EXPECT_EQ(frames, 100 - static_cast<int>(ms / 100)) << ms;
  }
}

}  // namespace
}  // namespace convolab::capture
