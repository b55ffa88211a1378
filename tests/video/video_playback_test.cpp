// SPDX-License-Identifier: MIT
// The app's playback of video files, through the capture thread as the app runs it: a variable-rate clip
// plays in its own duration, each frame when its time comes; seeking by time delivers the frame on screen
// then; a clip whose frame size changes mid-stream is reported failed, with the reason, instead of being
// reopened and its first part looped.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "capture/capture_thread.hpp"
#include "capture/video_file_source.hpp"
#include "video_data.hpp"

namespace convolab::capture {
namespace {

using namespace std::chrono_literals;

/// What the capture thread reported, for the test to wait on.
class Statuses {
 public:
  CaptureThread::StatusCallback callback() {
    return [this](const CaptureStatus& s) {
      std::lock_guard lock(m_mutex);
      m_all.push_back(s);
      m_changed.notify_all();
    };
  }
  bool waitFor(CaptureState state, std::chrono::milliseconds timeout = 5000ms) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [&] {
      return std::any_of(m_all.begin(), m_all.end(), [&](const auto& s) { return s.state == state; });
    });
  }
  std::vector<CaptureStatus> all() {
    std::lock_guard lock(m_mutex);
    return m_all;
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::vector<CaptureStatus> m_all;
};

/// The next frame from `slot`, or none after `timeout`.
std::optional<Frame> nextFrame(LatestFrameSlot& slot, std::chrono::milliseconds timeout = 5000ms) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto frame = slot.take()) return frame;
    std::this_thread::sleep_for(1ms);
  }
  return std::nullopt;
}

double msBetween(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

TEST(VideoPlayback, AVariableRateClipPlaysInItsDurationEachFrameAtItsTime) {
  // 20 frames over 3.0 s (tests/data/video/README.md): at the nominal 10 fps they took 2.0 s.
  auto slot = std::make_shared<LatestFrameSlot>();
  Statuses statuses;
  CaptureThread thread(std::make_unique<VideoFileSource>(kVideos / "variable_rate.mkv"), slot, nullptr,
                       statuses.callback());
  ASSERT_TRUE(statuses.waitFor(CaptureState::Running));
  EXPECT_DOUBLE_EQ(thread.durationMs(), 3000);
  std::vector<Frame> frames;
  for (;;) {
    auto frame = nextFrame(*slot);
    ASSERT_TRUE(frame) << "after " << frames.size() << " frames";
    if (!frames.empty() && frame->timestampMs <= frames.back().timestampMs) {
      // Started over: the clip lasted from its first frame until now.
      const double loopMs = msBetween(frames.front().captured, frame->captured);
      EXPECT_NEAR(loopMs, 3000, 500);
      break;
    }
    frames.push_back(std::move(*frame));
  }
  ASSERT_EQ(frames.size(), 20u);
  EXPECT_DOUBLE_EQ(frames.front().timestampMs, 0);
  // Each frame on screen when its time in the clip has passed: the 40 ms frames and the 1.3 s gap too.
  for (const Frame& f : frames)
    EXPECT_NEAR(msBetween(frames.front().captured, f.captured), f.timestampMs, 150) << f.timestampMs;
}

TEST(VideoPlayback, SeekingByTimeDeliversTheFrameOnScreenThen) {
  auto slot = std::make_shared<LatestFrameSlot>();
  Statuses statuses;
  CaptureThread thread(std::make_unique<VideoFileSource>(kVideos / "variable_rate.mkv"), slot, nullptr,
                       statuses.callback());
  ASSERT_TRUE(statuses.waitFor(CaptureState::Running));
  thread.setPaused(true);
  std::this_thread::sleep_for(50ms);
  slot->clear();
  // Paused, a seek shows the frame on screen at the time sought, at that time: at 2.6 s the frame of 2.6 s;
  // inside the 1.3 s gap (at 2.0 s) the one before it (1.16 s), which stays on screen until 2.5 s.
  std::map<long, std::shared_ptr<const Image>> byTime;  // what sequential reading delivers, by frame time
  {
    VideoFileSource sequential(kVideos / "variable_rate.mkv");
    sequential.open();
    Frame f;
    for (int i = 0; i < 20; ++i) {
      ASSERT_TRUE(sequential.read(f));
      byTime[std::lround(f.timestampMs)] = f.image;
    }
  }
  const std::vector<std::pair<double, long>> seeks{
      {2600, 2600}, {2000, 1160}, {0, 0}, {2950, 2900}, {1200, 1160}};
  for (const auto& [target, frameTime] : seeks) {
    thread.seekMs(target);
    auto frame = nextFrame(*slot);
    ASSERT_TRUE(frame) << target;
    EXPECT_NEAR(frame->timestampMs, target, 0.01) << target;
    EXPECT_NEAR(thread.positionMs(), target, 0.01) << target;
    ASSERT_TRUE(byTime.count(frameTime)) << frameTime;
    const Image& expected = *byTime[frameTime];
    EXPECT_TRUE(std::equal(frame->image->pixels.begin(), frame->image->pixels.end(), expected.pixels.begin(),
                           expected.pixels.end()))
        << "seek to " << target << " shows another frame than the one of " << frameTime << " ms";
  }
  // Playing on from inside the gap: the next frame (2.5 s) comes when its own time is reached.
  thread.seekMs(2000);
  ASSERT_TRUE(nextFrame(*slot));
  const auto resumed = Clock::now();
  thread.setPaused(false);
  auto next = nextFrame(*slot);
  ASSERT_TRUE(next);
  EXPECT_NEAR(next->timestampMs, 2500, 1);
  EXPECT_NEAR(msBetween(resumed, next->captured), 500, 150);
}

TEST(VideoPlayback, AFrameSizeChangeFailsTheSourceWithTheReasonInsteadOfLooping) {
  // 3 frames of 32×24, then 64×48: OpenCV cannot decode the rest. Reopening played the first 3 frames
  // forever, the failure unseen.
  auto slot = std::make_shared<LatestFrameSlot>();
  Statuses statuses;
  CaptureThread thread(std::make_unique<VideoFileSource>(kVideos / "size_change.avi"), slot, nullptr,
                       statuses.callback(), 10ms);
  ASSERT_TRUE(statuses.waitFor(CaptureState::Failed));
  std::this_thread::sleep_for(300ms);  // thirty retry intervals: time to reopen and loop
  const auto all = statuses.all();
  ASSERT_EQ(all.size(), 3u);  // Opening, Running, Failed: never reopened
  EXPECT_EQ(all[1].state, CaptureState::Running);
  EXPECT_EQ(all[2].state, CaptureState::Failed);
  EXPECT_FALSE(all[2].retrying);
  EXPECT_NE(all[2].message.find("size_change.avi"), std::string::npos) << all[2].message;
  EXPECT_NE(all[2].message.find("frame size changes"), std::string::npos) << all[2].message;
}

}  // namespace
}  // namespace convolab::capture
