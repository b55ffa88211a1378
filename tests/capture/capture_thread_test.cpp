// SPDX-License-Identifier: MIT
// The capture thread: starts and stops, hands frames over, pauses and steps, and reconnects a source that
// disappears (a fake one), reporting each state on the way.
#include "capture/capture_thread.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <vector>

#include "capture/test_pattern_source.hpp"
#include "fake_source.hpp"

namespace convolab::capture {
namespace {

using namespace std::chrono_literals;
using test::FakeCounters;
using test::FakeScript;
using test::FakeSource;

/// Collects what the capture thread reports (on its own thread) and lets the test wait for it.
class Recorder {
 public:
  CaptureThread::StatusCallback onStatus() {
    return [this](const CaptureStatus& s) {
      std::lock_guard lock(m_mutex);
      m_statuses.push_back(s);
      m_changed.notify_all();
    };
  }
  CaptureThread::FrameCallback onFrame() {
    return [this] {
      std::lock_guard lock(m_mutex);
      ++m_wakeups;
      m_changed.notify_all();
    };
  }
  /// Waits until `done(statuses)` holds; false after `timeout`.
  template <class Done>
  bool waitFor(Done done, std::chrono::milliseconds timeout = 5000ms) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [&] { return done(m_statuses); });
  }
  bool waitForState(CaptureState state, int nth = 1) {
    return waitFor([&](const auto& all) { return count(all, state) >= nth; });
  }
  std::vector<CaptureStatus> statuses() {
    std::lock_guard lock(m_mutex);
    return m_statuses;
  }
  int wakeups() {
    std::lock_guard lock(m_mutex);
    return m_wakeups;
  }
  static int count(const std::vector<CaptureStatus>& all, CaptureState state) {
    return static_cast<int>(
        std::count_if(all.begin(), all.end(), [&](const auto& s) { return s.state == state; }));
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::vector<CaptureStatus> m_statuses;
  int m_wakeups = 0;
};

/// Takes frames from `slot` until `n` arrived; false after `timeout`.
bool takeFrames(LatestFrameSlot& slot, int n, std::chrono::milliseconds timeout = 5000ms) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int got = 0;
  while (got < n && std::chrono::steady_clock::now() < deadline) {
    if (slot.take()) ++got;
    std::this_thread::sleep_for(1ms);
  }
  return got >= n;
}

TEST(CaptureThread, StartsDeliversAndStops) {
  auto slot = std::make_shared<LatestFrameSlot>();
  Recorder recorder;
  auto counters = std::make_shared<FakeCounters>();
  {
    CaptureThread thread(std::make_unique<FakeSource>(FakeScript{}, counters), slot, recorder.onFrame(),
                         recorder.onStatus());
    ASSERT_TRUE(recorder.waitForState(CaptureState::Running));
    EXPECT_TRUE(takeFrames(*slot, 5));
    EXPECT_GT(recorder.wakeups(), 0);
  }  // stops and joins
  const auto statuses = recorder.statuses();
  ASSERT_GE(statuses.size(), 2u);
  EXPECT_EQ(statuses[0].state, CaptureState::Opening);
  EXPECT_EQ(statuses[1].state, CaptureState::Running);
  EXPECT_EQ(statuses[1].kindName, "Fake");
  EXPECT_EQ(statuses[1].description, "fake source");
  EXPECT_EQ(statuses[1].mode, "4×2 fake");
  EXPECT_TRUE(statuses[1].canStep);
  EXPECT_EQ(counters->closes.load(), 1);  // closed once, by the stop
  const int reads = counters->reads.load();
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(counters->reads.load(), reads);  // nothing reads after the stop
}

// A one-frame clip is known to be a still only once it was read to its end: the capture thread says so then
// (the statistics read it as a still image; they showed a live rate and drops for it).
TEST(CaptureThread, SaysWhenASourceTurnsOutToBeAStill) {
  auto slot = std::make_shared<LatestFrameSlot>();
  Recorder recorder;
  auto counters = std::make_shared<FakeCounters>();
  CaptureThread thread(std::make_unique<FakeSource>(FakeScript{.stillAfter = 3}, counters), slot, nullptr,
                       recorder.onStatus());
  ASSERT_TRUE(recorder.waitForState(CaptureState::Running, 2));
  const auto statuses = recorder.statuses();
  EXPECT_FALSE(statuses[1].still);  // not yet known when it opened
  EXPECT_TRUE(statuses[2].still);
  EXPECT_EQ(statuses[2].mode, "4×2 fake");
  std::this_thread::sleep_for(30ms);
  EXPECT_EQ(Recorder::count(recorder.statuses(), CaptureState::Running), 2);  // said once, not per frame
}

TEST(CaptureThread, StopsPromptlyWhileWaitingToRetry) {
  auto slot = std::make_shared<LatestFrameSlot>();
  Recorder recorder;
  auto counters = std::make_shared<FakeCounters>();
  const auto start = std::chrono::steady_clock::now();
  {
    CaptureThread thread(std::make_unique<FakeSource>(FakeScript{.absentOpens = 1000}, counters), slot,
                         nullptr, recorder.onStatus(), std::chrono::milliseconds(60'000));
    ASSERT_TRUE(recorder.waitForState(CaptureState::Failed));
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);  // the minute-long retry wait was cut short
}

TEST(CaptureThread, SourceThatDisappearsIsReconnected) {
  auto slot = std::make_shared<LatestFrameSlot>();
  Recorder recorder;
  auto counters = std::make_shared<FakeCounters>();
  // Three frames per open; after each loss the first two reopens fail.
  CaptureThread thread(
      std::make_unique<FakeSource>(FakeScript{.framesPerOpen = 3, .failedReopens = 2}, counters), slot,
      recorder.onFrame(), recorder.onStatus(), 2ms);
  ASSERT_TRUE(recorder.waitForState(CaptureState::Running, 2));
  const auto statuses = recorder.statuses();
  // Opening, Running, Disconnected (reported once, though reopening failed twice more), Running.
  ASSERT_GE(statuses.size(), 4u);
  EXPECT_EQ(statuses[0].state, CaptureState::Opening);
  EXPECT_EQ(statuses[1].state, CaptureState::Running);
  EXPECT_EQ(statuses[2].state, CaptureState::Disconnected);
  EXPECT_TRUE(statuses[2].retrying);
  EXPECT_FALSE(statuses[2].absent);
  EXPECT_EQ(statuses[2].message, "Fake stopped delivering frames");  // named by its kind
  EXPECT_EQ(statuses[3].state, CaptureState::Running);
  EXPECT_GE(counters->opens.load(), 4);  // first open, two failed reopens, the one that worked
  EXPECT_GE(counters->reads.load(), 3);
}

TEST(CaptureThread, AbsentDeviceIsWaitedForAndSaidToBeAbsent) {
  auto slot = std::make_shared<LatestFrameSlot>();
  Recorder recorder;
  auto counters = std::make_shared<FakeCounters>();
  CaptureThread thread(std::make_unique<FakeSource>(FakeScript{.absentOpens = 3}, counters), slot, nullptr,
                       recorder.onStatus(), 2ms);
  ASSERT_TRUE(recorder.waitForState(CaptureState::Running));
  const auto statuses = recorder.statuses();
  ASSERT_EQ(statuses.size(), 3u);  // the failure is reported once, not on every retry
  EXPECT_EQ(statuses[1].state, CaptureState::Failed);
  EXPECT_TRUE(statuses[1].retrying);
  EXPECT_TRUE(statuses[1].absent);
  EXPECT_EQ(statuses[1].message, "no fake at /dev/fake");
  EXPECT_EQ(statuses[2].state, CaptureState::Running);
  EXPECT_EQ(counters->opens.load(), 4);
  EXPECT_TRUE(takeFrames(*slot, 1));
}

TEST(CaptureThread, SourceThatCannotReconnectStaysFailed) {
  auto slot = std::make_shared<LatestFrameSlot>();
  Recorder recorder;
  auto counters = std::make_shared<FakeCounters>();
  CaptureThread thread(
      std::make_unique<FakeSource>(FakeScript{.absentOpens = 1, .reconnects = false}, counters), slot,
      nullptr, recorder.onStatus(), 1ms);
  ASSERT_TRUE(recorder.waitForState(CaptureState::Failed));
  std::this_thread::sleep_for(30ms);
  EXPECT_EQ(counters->opens.load(), 1);  // never retried
  const auto statuses = recorder.statuses();
  EXPECT_EQ(statuses.size(), 2u);
  EXPECT_FALSE(statuses.back().retrying);
}

TEST(CaptureThread, PausedPacedSourceDeliversOnlyWhatIsStepped) {
  auto slot = std::make_shared<LatestFrameSlot>();
  Recorder recorder;
  auto counters = std::make_shared<FakeCounters>();
  CaptureThread thread(std::make_unique<FakeSource>(FakeScript{}, counters), slot, nullptr,
                       recorder.onStatus());
  ASSERT_TRUE(recorder.waitForState(CaptureState::Running));
  thread.setPaused(true);
  std::this_thread::sleep_for(30ms);  // a read in flight when pausing may still land
  slot->clear();
  const int readsWhilePaused = counters->reads.load();
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(counters->reads.load(), readsWhilePaused);  // a paced source stops reading altogether
  EXPECT_FALSE(slot->take());
  thread.step();
  EXPECT_TRUE(takeFrames(*slot, 1));
  std::this_thread::sleep_for(30ms);
  EXPECT_FALSE(slot->take());  // exactly one
  // At most one more read: the frame stepped to may have been read before the pause, waiting to be due.
  EXPECT_LE(counters->reads.load(), readsWhilePaused + 1);
  thread.seek(42);  // while paused, the frame sought is shown
  EXPECT_TRUE(takeFrames(*slot, 1));
  EXPECT_EQ(counters->lastSeek.load(), 42);
  thread.setPaused(false);
  EXPECT_TRUE(takeFrames(*slot, 3));
}

TEST(CaptureThread, PausedSelfPacedSourceKeepsReadingButDeliversNothing) {
  auto slot = std::make_shared<LatestFrameSlot>();
  Recorder recorder;
  auto counters = std::make_shared<FakeCounters>();
  // A camera-like source: read() would wait for the device; here it returns at once.
  CaptureThread thread(std::make_unique<FakeSource>(FakeScript{.selfPaced = true}, counters), slot, nullptr,
                       recorder.onStatus());
  ASSERT_TRUE(recorder.waitForState(CaptureState::Running));
  thread.setPaused(true);
  std::this_thread::sleep_for(20ms);
  slot->clear();
  const int reads = counters->reads.load();
  std::this_thread::sleep_for(30ms);
  EXPECT_GT(counters->reads.load(), reads);  // buffers stay fresh
  EXPECT_FALSE(slot->take());
}

TEST(CaptureThread, RunsTheTestPatternAtItsRate) {
  auto slot = std::make_shared<LatestFrameSlot>();
  Recorder recorder;
  TestPatternOptions options;
  options.width = 32;
  options.height = 16;
  options.fps = 100;
  CaptureThread thread(std::make_unique<TestPatternSource>(options), slot, nullptr, recorder.onStatus());
  ASSERT_TRUE(recorder.waitForState(CaptureState::Running));
  EXPECT_EQ(recorder.statuses().back().fps, 100);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(takeFrames(*slot, 10));
  // Paced: ten frames at 100 fps take about 0.1 s, never much less.
  EXPECT_GE(std::chrono::steady_clock::now() - start, 70ms);
}

}  // namespace
}  // namespace convolab::capture
