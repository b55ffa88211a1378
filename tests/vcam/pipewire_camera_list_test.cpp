// SPDX-License-Identifier: MIT
// PipeWire cameras in File ▸ Camera: capture::listDevices() lists the Video/Source nodes of a private
// PipeWire (a GStreamer test camera, as a real camera app would publish it) but never our own output node,
// and costs at most its timeout when the daemon is missing or never answers; the camera listed opens by its
// spec and delivers its frames in RGB (GStreamer's RGBx included).
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "capture/pipewire_camera_source.hpp"
#include "capture/source_spec.hpp"
#include "pipewire/node_list.hpp"
#include "private_pipewire.hpp"
#include "vcam/pipewire_publisher.hpp"

extern char** environ;

namespace convolab::vcam::test {

using capture::PipeWireCameraSource;
using capture::pipewireNodeName;
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

bool hasDevice(const std::vector<capture::DeviceChoice>& devices, const std::string& spec) {
  return std::any_of(devices.begin(), devices.end(), [&](const auto& d) { return d.spec == spec; });
}

// The fake camera of the issue: gst's videotestsrc published as a Video/Source node named testcam.
pid_t startGstCamera(const char* pattern = "smpte") {
  const std::string patternArg = std::string("pattern=") + pattern;
  const char* argv[] = {"gst-launch-1.0",
                        "-q",
                        "videotestsrc",
                        "is-live=true",
                        patternArg.c_str(),
                        "!",
                        "video/x-raw,format=RGBx,width=640,height=480",
                        "!",
                        "pipewiresink",
                        "mode=provide",
                        "stream-properties=p,media.class=Video/Source,node.name=testcam",
                        nullptr};
  pid_t pid = -1;
  if (posix_spawnp(&pid, argv[0], nullptr, nullptr, const_cast<char**>(argv), environ) != 0) return -1;
  return pid;
}

TEST(PipeWireCameraListTest, ListsTheTestCameraButNeverOurOwnOutput) {
  if (const std::string why = PrivatePipeWire::unavailableReason(); !why.empty()) GTEST_SKIP() << why;
  if (std::system(
          "gst-inspect-1.0 videotestsrc >/dev/null 2>&1 && gst-inspect-1.0 pipewiresink >/dev/null 2>&1"))
    GTEST_SKIP() << "GStreamer's videotestsrc or pipewiresink is missing (gstreamer1.0-plugins-base, "
                    "gstreamer1.0-pipewire: scripts/install-deps.sh)";
  PrivatePipeWire daemon;
  ASSERT_TRUE(daemon.start());
  // Our own virtual camera is a Video/Source too: it must not be offered as a camera to open.
  PipeWirePublisher own(PublisherOptions{pipewire::kOwnVirtualCameraNode, "ConvoLab (filtered)", 200ms});
  auto frame = std::make_shared<Image>(64, 48);
  for (const auto until = Clock::now() + 5s; own.status().nodeId == 0 && Clock::now() < until;) {
    own.publish(frame);  // the node appears with a frame
    std::this_thread::sleep_for(50ms);
  }
  ASSERT_NE(own.status().nodeId, 0u) << "our own node never appeared";
  const pid_t camera = startGstCamera();
  ASSERT_GT(camera, 0);

  std::vector<capture::DeviceChoice> devices;
  const auto deadline = Clock::now() + 10s;
  while (Clock::now() < deadline) {
    devices = capture::listDevices();
    if (hasDevice(devices, "pipewire:testcam")) break;
    std::this_thread::sleep_for(100ms);
  }
  // What File ▸ Camera costs with a daemon and two video nodes: recorded for docs/GUI.md.
  const auto before = Clock::now();
  for (int i = 0; i < 10; ++i) capture::listDevices();
  const double listMs = std::chrono::duration<double, std::milli>(Clock::now() - before).count() / 10;
  RecordProperty("list_ms", std::to_string(listMs));
  std::cout << "listDevices() with a daemon: " << listMs << " ms\n";
  kill(camera, SIGTERM);
  waitpid(camera, nullptr, 0);

  EXPECT_TRUE(hasDevice(devices, "pipewire:testcam"));
  EXPECT_FALSE(hasDevice(devices, "pipewire:convolab"));
  for (const auto& d : devices)
    if (d.spec == "pipewire:testcam") {
      EXPECT_NE(d.label.find("testcam"), std::string::npos) << d.label;
    }
}

// The fake camera (videotestsrc, RGBx 640×480) as the app meets it: listed, then opened by the spec
// the list gives, its frames arriving in RGB with R, G and B in their places (solid red stays red).
TEST(PipeWireCameraListTest, TheListedGstCameraOpensAndDeliversRgb) {
  if (const std::string why = PrivatePipeWire::unavailableReason(); !why.empty()) GTEST_SKIP() << why;
  if (std::system(
          "gst-inspect-1.0 videotestsrc >/dev/null 2>&1 && gst-inspect-1.0 pipewiresink >/dev/null 2>&1"))
    GTEST_SKIP() << "GStreamer's videotestsrc or pipewiresink is missing (gstreamer1.0-plugins-base, "
                    "gstreamer1.0-pipewire: scripts/install-deps.sh)";
  PrivatePipeWire daemon;
  ASSERT_TRUE(daemon.start());
  const pid_t camera = startGstCamera("red");
  ASSERT_GT(camera, 0);
  std::string spec;
  for (const auto until = Clock::now() + 10s; spec.empty() && Clock::now() < until;) {
    for (const auto& d : capture::listDevices())
      if (d.spec == "pipewire:testcam") spec = d.spec;
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_EQ(spec, "pipewire:testcam");
  capture::Frame frame;
  bool read = false;
  try {
    PipeWireCameraSource source(pipewireNodeName(spec));
    source.open();
    read = source.read(frame);
    EXPECT_EQ(source.deliveredMode(), "640×480 RGBx");
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();  // and the camera is still stopped below
  }
  kill(camera, SIGTERM);
  waitpid(camera, nullptr, 0);
  ASSERT_TRUE(read);
  ASSERT_EQ(frame.image->width, 640);
  ASSERT_EQ(frame.image->height, 480);
  const std::uint8_t* p = frame.image->pixels.data() + 240 * frame.image->stride + 320 * 3;
  EXPECT_EQ(int(p[0]), 255);
  EXPECT_EQ(int(p[1]), 0);
  EXPECT_EQ(int(p[2]), 0);
}

TEST(PipeWireCameraListTest, NoDaemonCostsNothing) {
  if (const std::string why = PrivatePipeWire::unavailableReason(); !why.empty()) GTEST_SKIP() << why;
  const auto start = Clock::now();
  EXPECT_TRUE(pipewire::listPipeWireCameras().empty());
  EXPECT_LT(Clock::now() - start, 200ms);
}

// A daemon that accepts the connection but never answers (hung, stopped with SIGSTOP): the listing gives up
// after its timeout instead of hanging the Camera menu.
TEST(PipeWireCameraListTest, ADaemonThatNeverAnswersCostsAtMostTheTimeout) {
  const char* runtime = std::getenv("XDG_RUNTIME_DIR");
  if (runtime == nullptr) GTEST_SKIP() << "no XDG_RUNTIME_DIR";
  const std::string path = std::string(runtime) + "/convolab-silent-0";
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof addr.sun_path);
  std::copy(path.begin(), path.end(), addr.sun_path);
  unlink(path.c_str());
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(fd, 4), 0);  // connections wait in the backlog, never accepted, never answered
  setenv("PIPEWIRE_REMOTE", "convolab-silent-0", 1);

  const auto start = Clock::now();
  EXPECT_TRUE(pipewire::listPipeWireCameras(150ms).empty());
  const auto took = Clock::now() - start;
  unsetenv("PIPEWIRE_REMOTE");
  close(fd);
  unlink(path.c_str());
  EXPECT_GE(took, 140ms);
  EXPECT_LT(took, 400ms);
}

}  // namespace
}  // namespace convolab::vcam::test
