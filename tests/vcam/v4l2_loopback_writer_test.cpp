// SPDX-License-Identifier: MIT
// The v4l2loopback writer against a fake device (format negotiation and frame layout), and against a real
// loopback device where one exists.
#include <gtest/gtest.h>
#include <linux/videodev2.h>

#include <cstring>
#include <map>

#include "pipewire/frame_conversion.hpp"
#include "vcam/v4l2_loopback_writer.hpp"

namespace convolab::vcam {

using namespace convolab::pipewire;
namespace {

// /dev/video0 is a webcam (uvcvideo), /dev/video7 a loopback; records the format set and the bytes written.
class FakeDevices : public V4l2Io {
 public:
  std::vector<std::string> videoDevices() override { return {"/dev/video0", "/dev/video7"}; }
  int open(const std::string& path) override {
    return path == "/dev/video0" ? 10 : path == "/dev/video7" ? 17 : -1;
  }
  int ioctl(int fd, unsigned long request, void* arg) override {
    if (request == VIDIOC_QUERYCAP) {
      auto* cap = static_cast<v4l2_capability*>(arg);
      std::strcpy(reinterpret_cast<char*>(cap->driver), fd == 17 ? "v4l2 loopback" : "uvcvideo");
      return 0;
    }
    if (request == VIDIOC_S_FMT) {
      formats.push_back(*static_cast<v4l2_format*>(arg));
      return 0;
    }
    return -1;
  }
  long write(int, const void* data, std::size_t size) override {
    written.emplace_back(static_cast<const std::uint8_t*>(data),
                         static_cast<const std::uint8_t*>(data) + size);
    return static_cast<long>(size);
  }
  void close(int fd) override { ++closed[fd]; }

  std::vector<v4l2_format> formats;
  std::vector<std::vector<std::uint8_t>> written;
  std::map<int, int> closed;
};

Image gradient(int w, int h) {
  Image image(w, h);
  for (std::size_t i = 0; i < image.pixels.size(); ++i) image.pixels[i] = static_cast<std::uint8_t>(i * 13);
  return image;
}

TEST(V4l2LoopbackWriterTest, FindsTheLoopbackDeviceByItsDriverName) {
  FakeDevices devices;
  EXPECT_EQ(findLoopbackDevice(devices), "/dev/video7");
  EXPECT_EQ(devices.closed[10], 1);  // the webcam was only asked, and let go
}

TEST(V4l2LoopbackWriterTest, RefusesADeviceThatIsNoLoopback) {
  auto devices = std::make_shared<FakeDevices>();
  EXPECT_THROW(V4l2LoopbackWriter("/dev/video0", devices), std::runtime_error);
}

TEST(V4l2LoopbackWriterTest, SetsYuyvAtTheFrameSizeAndWritesPackedRows) {
  auto devices = std::make_shared<FakeDevices>();
  V4l2LoopbackWriter writer("/dev/video7", devices);
  const Image frame = gradient(6, 4);
  writer.write(frame.view());
  writer.write(frame.view());
  ASSERT_EQ(devices->formats.size(), 1u);  // set once for a size
  const v4l2_pix_format& pix = devices->formats[0].fmt.pix;
  EXPECT_EQ(devices->formats[0].type, V4L2_BUF_TYPE_VIDEO_OUTPUT);
  EXPECT_EQ(pix.pixelformat, V4L2_PIX_FMT_YUYV);
  EXPECT_EQ(pix.width, 6u);
  EXPECT_EQ(pix.height, 4u);
  EXPECT_EQ(pix.bytesperline, 12u);
  EXPECT_EQ(pix.sizeimage, 48u);
  ASSERT_EQ(devices->written.size(), 2u);
  std::vector<std::uint8_t> expected(48);
  convertFrame(frame.view(), VideoFormat::YUY2, expected.data());
  EXPECT_EQ(devices->written[1], expected);
  EXPECT_EQ(writer.framesWritten(), 2u);
}

TEST(V4l2LoopbackWriterTest, NewSizeSetsTheFormatAgainAndAnOddColumnIsLeftOut) {
  auto devices = std::make_shared<FakeDevices>();
  V4l2LoopbackWriter writer("/dev/video7", devices);
  writer.write(gradient(6, 4).view());
  writer.write(gradient(9, 5).view());
  ASSERT_EQ(devices->formats.size(), 2u);
  EXPECT_EQ(devices->formats[1].fmt.pix.width, 8u);
  EXPECT_EQ(devices->written[1].size(), 8u * 2 * 5);
}

TEST(V4l2LoopbackWriterTest, RealLoopbackDeviceTakesFrames) {
  auto io = systemV4l2Io();
  const std::string path = findLoopbackDevice(*io);
  if (path.empty())
    GTEST_SKIP()
        << "no v4l2loopback device (sudo modprobe v4l2loopback exclusive_caps=1 card_label=ConvoLab)";
  V4l2LoopbackWriter writer(path, io);
  const Image frame = gradient(640, 480);
  for (int i = 0; i < 3; ++i) writer.write(frame.view());
  EXPECT_EQ(writer.framesWritten(), 3u);
}

}  // namespace
}  // namespace convolab::vcam
