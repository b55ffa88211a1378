// SPDX-License-Identifier: MIT
// The loopback feeder: frames reach the device on the feeder's thread, and a slow device never makes
// publish() wait (what it misses is counted).
#include <gtest/gtest.h>
#include <linux/videodev2.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "vcam/loopback_feeder.hpp"

namespace convolab::vcam {
namespace {

using namespace std::chrono_literals;

// A loopback device that takes 30 ms to accept a frame.
class SlowLoopback : public V4l2Io {
 public:
  std::vector<std::string> videoDevices() override { return {"/dev/video7"}; }
  int open(const std::string&) override { return 7; }
  int ioctl(int, unsigned long request, void* arg) override {
    if (request == VIDIOC_QUERYCAP)
      std::strcpy(reinterpret_cast<char*>(static_cast<v4l2_capability*>(arg)->driver), "v4l2 loopback");
    return 0;
  }
  long write(int, const void*, std::size_t size) override {
    std::this_thread::sleep_for(30ms);
    ++writes;
    return static_cast<long>(size);
  }
  void close(int) override {}
  std::atomic<int> writes{0};
};

TEST(LoopbackFeederTest, SlowDeviceNeverHoldsUpThePublisherAndDropsAreCounted) {
  auto device = std::make_shared<SlowLoopback>();
  LoopbackFeeder feeder(std::make_unique<V4l2LoopbackWriter>("/dev/video7", device), "/dev/video7");
  auto frame = std::make_shared<const Image>(64, 48);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 50; ++i) {
    feeder.publish(frame);
    std::this_thread::sleep_for(1ms);
  }
  const auto spent = std::chrono::steady_clock::now() - start;
  EXPECT_LT(spent, 30ms * 10) << "publish() waited for the device";
  std::this_thread::sleep_for(100ms);
  EXPECT_GE(feeder.written(), 2u);
  EXPECT_GT(feeder.dropped(), 10u);
  EXPECT_EQ(feeder.written() + feeder.dropped(), 50u);
  EXPECT_TRUE(feeder.error().empty());
}

}  // namespace
}  // namespace convolab::vcam
