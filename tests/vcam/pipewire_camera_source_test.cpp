// SPDX-License-Identifier: MIT
// A PipeWire camera as a frame source, against a private PipeWire: the "camera" is a PipeWirePublisher named
// testcam (what gst's pipewiresink mode=provide would be), so the test needs no GStreamer plug-ins.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "capture/pipewire_camera_source.hpp"
#include "cv/image_codec.hpp"
#include "fake_camera.hpp"
#include "image_difference.hpp"
#include "pipewire/node_list.hpp"
#include "private_pipewire.hpp"
#include "silent_daemon.hpp"

namespace convolab::vcam::test {

using convolab::test::maxAbsDiff;  // tests/support/image_difference.hpp

using capture::PipeWireCameraSource;
using capture::pipewireNodeName;
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

// `command` under sh, in its own process (killed by the caller).
pid_t spawnShell(const std::string& command) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
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
    EXPECT_LE(maxAbsDiff(*got.image, *frame), 8) << source.deliveredMode();
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

// A camera that offers only motion JPEG (GStreamer's jpegenc into pipewiresink, as a webcam's MJPG mode):
// the source negotiates MJPG and decodes it; each frame equals the same encoder's JPEG decoded by OpenCV.
// pipewiresink's own buffers hold 8 KiB and cut this JPEG short (a cut JPEG is refused, not shown): the
// source asks for buffers of a raw frame's size. The pattern is a still one, so every frame is the reference.
TEST_F(PipeWireCameraSourceTest, AnMjpgOnlyCameraIsDecoded) {
  if (std::system("for e in videotestsrc jpegenc pipewiresink filesink; do gst-inspect-1.0 $e >/dev/null "
                  "2>&1 || exit 1; done") != 0)
    GTEST_SKIP() << "GStreamer's jpegenc or pipewiresink is missing (gstreamer1.0-plugins-good, "
                    "gstreamer1.0-pipewire: scripts/install-deps.sh)";
  const std::string dir = std::getenv("XDG_RUNTIME_DIR");
  const std::string encode = " ! video/x-raw,width=320,height=240,framerate=30/1 ! jpegenc quality=90 ! ";
  const std::string reference = dir + "/reference.jpg";
  ASSERT_EQ(std::system(("gst-launch-1.0 -q videotestsrc pattern=colors num-buffers=1" + encode +
                         "filesink location=" + reference + " >/dev/null 2>&1")
                            .c_str()),
            0);
  const pid_t camera = spawnShell(
      "exec gst-launch-1.0 -q videotestsrc pattern=colors is-live=true" + encode +
      "pipewiresink mode=provide stream-properties=\"p,media.class=Video/Source,node.name=mjpgcam\" "
      ">/dev/null 2>&1");
  ASSERT_GT(camera, 0);
  PipeWireCameraSource source("mjpgcam");
  capture::Frame got;
  const bool read = readWithRetries(source, got, 15s);
  const std::string mode = source.deliveredMode();
  source.close();
  ::kill(camera, SIGTERM);
  ::waitpid(camera, nullptr, 0);
  ASSERT_TRUE(read);
  EXPECT_EQ(mode, "320×240 MJPG");
  EXPECT_LE(maxAbsDiff(*got.image, opencv::loadImage(reference)), 1);
}

// Frames are decoded straight into the pipeline's staging (pinned memory of the device in the app), as every
// other source's are, not into heap images copied later.
TEST_F(PipeWireCameraSourceTest, FramesAreDecodedIntoTheStagingStorage) {
  struct CountingStorage : PixelStorage {
    std::atomic<int> allocations{0};
    void* allocate(std::size_t bytes) noexcept override {
      ++allocations;
      return std::malloc(bytes);
    }
    bool release(void* p, std::size_t) noexcept override {
      std::free(p);
      return true;
    }
  };
  const auto storage = std::make_shared<CountingStorage>();
  const auto cell = std::make_shared<capture::StagingStorage>();
  cell->set(storage);
  FakeCamera camera("testcam", colourFrame(64, 48));
  PipeWireCameraSource source("testcam");
  source.setStaging(cell);
  capture::Frame got;
  ASSERT_TRUE(readWithRetries(source, got, 10s));
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(source.read(got));
  EXPECT_EQ(got.image->storage(), storage.get());
  EXPECT_LE(maxAbsDiff(*got.image, *colourFrame(64, 48)), 8);
  EXPECT_LE(storage->allocations.load(), 6) << "the pool recycles its buffers";
  source.close();
}

bool hasGStreamerPipeWire() {
  return std::system(
             "for e in videotestsrc pipewiresink pipewiresrc fakesink; do gst-inspect-1.0 $e "
             ">/dev/null 2>&1 || exit 1; done") == 0;
}

// A GStreamer camera, as people make one (issue 34.2): videotestsrc into pipewiresink mode=provide.
class GstCamera {
 public:
  /// `moreProperties`: ",key=value…" added to the node's properties.
  explicit GstCamera(const std::string& name, const std::string& moreProperties = "")
      : m_pid(spawnShell("exec gst-launch-1.0 -q videotestsrc is-live=true ! "
                         "video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! pipewiresink "
                         "mode=provide stream-properties=\"p,media.class=Video/Source,node.name=" +
                         name + moreProperties + "\" >/dev/null 2>&1")) {}
  ~GstCamera() {
    ::kill(m_pid, SIGTERM);
    ::waitpid(m_pid, nullptr, 0);
  }
  /// Whether the node appeared within `timeout`.
  bool waitUntilListed(const std::string& name, std::chrono::milliseconds timeout) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      for (const auto& node : pipewire::listPipeWireCameras())
        if (node.name == name) return true;
      std::this_thread::sleep_for(20ms);
    }
    return false;
  }

 private:
  pid_t m_pid;
};

// Another program reading the camera (GStreamer's pipewiresrc); `frames` 0: until killed.
std::string gstConsumer(const std::string& name, int frames) {
  return "gst-launch-1.0 -q pipewiresrc target-object=" + name +
         (frames > 0 ? " num-buffers=" + std::to_string(frames) : std::string()) +
         " ! video/x-raw,format=I420 ! fakesink >/dev/null 2>&1";
}

// How long after the last reader left the producer has stalled for good (measured: under about 0.5 s it had
// not, and the next reader still got frames without the fix).
constexpr auto kStalled = 800ms;

// Frames keep coming: the first within 4 s (the old code got none, ever), then 30 more (a second of the
// camera: without the reader driving it, the producer stalled again within it in 2 of 5 runs).
void expectFrames(PipeWireCameraSource& source) {
  capture::Frame got;
  ASSERT_TRUE(readWithRetries(source, got, 4s)) << "no frame from a camera another program used";
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(source.read(got)) << "the camera stalled after " << i << " frames";
  EXPECT_EQ(got.image->width, 320);
}

// Browsers and camera apps read a camera and leave. GStreamer's pipewiresink then stalls, and the next reader
// got nothing (issue 34.2): now an idle node is suspended before the link, and the reader drives a program's
// camera. Without the suspend both fail in 5 of 5 runs (no first frame); without the drive the first fails
// in 2 of 5 (a stall within the 30 frames); with both, 30 of 30 passed (docs/RELIABILITY.md).
TEST_F(PipeWireCameraSourceTest, OpensACameraThatOneProgramReadAndLeft) {
  if (!hasGStreamerPipeWire()) GTEST_SKIP() << "GStreamer's pipewiresink or pipewiresrc is missing";
  GstCamera camera("gstcam");
  ASSERT_TRUE(camera.waitUntilListed("gstcam", 5s));
  ASSERT_EQ(std::system(("timeout 10 " + gstConsumer("gstcam", 5)).c_str()), 0);
  std::this_thread::sleep_for(kStalled);
  PipeWireCameraSource source("gstcam");
  expectFrames(source);
}

TEST_F(PipeWireCameraSourceTest, OpensACameraThatTwoProgramsReadAndLeft) {
  if (!hasGStreamerPipeWire()) GTEST_SKIP() << "GStreamer's pipewiresink or pipewiresrc is missing";
  GstCamera camera("gstcam");
  ASSERT_TRUE(camera.waitUntilListed("gstcam", 5s));
  for (int i = 0; i < 2; ++i) ASSERT_EQ(std::system(("timeout 10 " + gstConsumer("gstcam", 5)).c_str()), 0);
  std::this_thread::sleep_for(kStalled);
  PipeWireCameraSource source("gstcam");
  expectFrames(source);
}

// The rule behind the drive: a program's camera is driven by the reader; a device's camera (v4l2, libcamera:
// its node names a device.id) keeps its own clock, so the reader never paces real hardware.
TEST_F(PipeWireCameraSourceTest, DrivesAProgramsCameraAndLeavesADevicesCameraItsClock) {
  if (!hasGStreamerPipeWire()) GTEST_SKIP() << "GStreamer's pipewiresink or pipewiresrc is missing";
  for (const bool device : {false, true}) {
    const std::string name = device ? "devcam" : "progcam";
    GstCamera camera(name, device ? ",device.id=4242" : "");
    ASSERT_TRUE(camera.waitUntilListed(name, 5s));
    PipeWireCameraSource source(name);
    capture::Frame got;
    ASSERT_TRUE(readWithRetries(source, got, 4s)) << name;
    EXPECT_EQ(source.drivesTheCamera(), !device) << name;
  }
}

// A camera another program is reading now is running: it is not suspended under that reader, and both get
// frames.
TEST_F(PipeWireCameraSourceTest, OpensACameraWhileAnotherProgramReadsIt) {
  if (!hasGStreamerPipeWire()) GTEST_SKIP() << "GStreamer's pipewiresink or pipewiresrc is missing";
  GstCamera camera("gstcam");
  ASSERT_TRUE(camera.waitUntilListed("gstcam", 5s));
  const std::string marker = std::string(std::getenv("XDG_RUNTIME_DIR")) + "/reader-done";
  const pid_t reader = spawnShell("timeout 10 " + gstConsumer("gstcam", 40) + " && touch " + marker);
  std::this_thread::sleep_for(300ms);  // it reads now
  PipeWireCameraSource source("gstcam");
  expectFrames(source);
  source.close();
  ::waitpid(reader, nullptr, 0);
  EXPECT_TRUE(std::filesystem::exists(marker)) << "the other reader got its 40 frames too";
}

// Our own virtual camera is a Video/Source too: a source asked for another camera never reads it.
TEST_F(PipeWireCameraSourceTest, AMissingCameraIsAbsentEvenBesideOurOwnOutput) {
  FakeCamera ownOutput("convolab", colourFrame(32, 24));
  PipeWireCameraSource source("testcam");
  source.open();
  capture::Frame got;
  EXPECT_THROW(source.read(got), capture::SourceAbsent);
}

// A daemon that accepts the connection and never answers (issue 34.9): open() gives up after the deadline
// with a message that says so, instead of opening and then timing out in read() and reopening for ever.
TEST(PipeWireCameraSourceSilentDaemonTest, OpenGivesUpAfterTheDeadlineWithAMessage) {
  if (const std::string reason = PrivatePipeWire::unavailableReason(); !reason.empty())
    GTEST_SKIP() << reason;
  SilentDaemon daemon;
  ASSERT_TRUE(daemon.listening());
  PipeWireCameraSource source("testcam");
  const auto start = std::chrono::steady_clock::now();
  std::string message;
  try {
    source.open();
  } catch (const capture::SourceError& e) {
    message = e.what();
  }
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_NE(message.find("PipeWire does not answer"), std::string::npos) << message;
  EXPECT_NE(message.find("pipewire-0"), std::string::npos) << message;
  EXPECT_GE(took, 1900ms);
  EXPECT_LT(took, 4s);
}

}  // namespace
}  // namespace convolab::vcam::test
