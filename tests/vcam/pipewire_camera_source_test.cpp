// SPDX-License-Identifier: MIT
// A PipeWire camera as a frame source, against a private PipeWire: the "camera" is a PipeWirePublisher named
// testcam (what gst's pipewiresink mode=provide would be), so the test needs no GStreamer plug-ins.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "fake_camera.hpp"
#include "private_pipewire.hpp"
#include "vcam/pipewire_camera_source.hpp"

namespace convolab::vcam::test {
namespace {

using namespace std::chrono_literals;

std::shared_ptr<const Image> colourFrame(int w, int h) {
  auto image = std::make_shared<Image>(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = image->pixels.data() + y * image->stride + x * 3;
      p[0] = static_cast<std::uint8_t>(x * 4);
      p[1] = static_cast<std::uint8_t>(y * 4);
      p[2] = 90;
    }
  return image;
}

int maxDifference(const Image& a, const Image& b) {
  if (a.width != b.width || a.height != b.height) return 999;
  int worst = 0;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width * 3; ++x)
      worst = std::max(worst, std::abs(int(a.pixels[y * a.stride + x]) - int(b.pixels[y * b.stride + x])));
  return worst;
}

// Reads until a frame comes, reopening after "absent" as the capture thread does; false after `timeout`.
bool readWithRetries(PipeWireCameraSource& source, capture::Frame& frame, std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    try {
      source.open();
      if (source.read(frame)) return true;
    } catch (const capture::SourceAbsent&) {
      source.close();
    }
  }
  return false;
}

class PipeWireCameraSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string reason = PrivatePipeWire::unavailableReason(); !reason.empty())
      GTEST_SKIP() << reason;
    ASSERT_TRUE(m_daemon.start());
  }
  PrivatePipeWire m_daemon;
};

TEST_F(PipeWireCameraSourceTest, SpecNamesTheNode) {
  EXPECT_EQ(pipewireNodeName("pipewire:testcam"), "testcam");
  EXPECT_EQ(pipewireNodeName("/dev/video0"), "");
  EXPECT_EQ(PipeWireCameraSource("testcam").traits().rememberedSpec, "pipewire:testcam");
}

// The camera's frames arrive (whatever format was negotiated, converted back to RGB); when the camera goes
// the source says it is absent, and when it comes back reading resumes.
TEST_F(PipeWireCameraSourceTest, ReadsTheCameraThenWaitsWhileItIsGoneThenResumes) {
  const auto frame = colourFrame(64, 48);
  PipeWireCameraSource source("testcam");
  capture::Frame got;
  {
    FakeCamera camera("testcam", frame);
    ASSERT_TRUE(readWithRetries(source, got, 10s));
    ASSERT_TRUE(source.read(got));
    EXPECT_LE(maxDifference(*got.image, *frame), 8) << source.deliveredMode();
  }
  EXPECT_THROW(
      {
        while (source.read(got)) {
        }
      },
      capture::SourceAbsent);
  source.close();
  FakeCamera again("testcam", frame);
  EXPECT_TRUE(readWithRetries(source, got, 10s));
}

// Our own virtual camera is a Video/Source too: a source asked for another camera never reads it.
TEST_F(PipeWireCameraSourceTest, AMissingCameraIsAbsentEvenBesideOurOwnOutput) {
  FakeCamera ownOutput("convolab", colourFrame(32, 24));
  PipeWireCameraSource source("testcam");
  source.open();
  capture::Frame got;
  EXPECT_THROW(source.read(got), capture::SourceAbsent);
}

}  // namespace
}  // namespace convolab::vcam::test
