// SPDX-License-Identifier: MIT
// FakeSource: a scripted frame source for the capture thread's tests — absent for a while, delivering, then
// gone, then back — with counters the test reads while the capture thread runs it.
#pragma once

#include <atomic>
#include <memory>

#include "capture/frame_source.hpp"

namespace convolab::capture::test {

struct FakeScript {
  int absentOpens = 0;     ///< the first opens throw SourceAbsent ("no fake at …")
  int framesPerOpen = -1;  ///< reads that succeed after each open, then read() fails (-1: never fails)
  int failedReopens = 0;   ///< after a read failure, this many reopens throw SourceError
  bool reconnects = true;  ///< canReconnect()
  bool selfPaced = false;  ///< read() paces itself (a camera) instead of the capture thread
  double fps = 500;        ///< pacing of a non-self-paced source: fast, so tests are short
  int stillAfter = -1;     ///< deliversStill() once this many frames were read (a one-frame clip); -1: never
};

/// What the test sees of the source while the capture thread owns it.
struct FakeCounters {
  std::atomic<int> opens{0};  ///< open() calls, failed or not
  std::atomic<int> reads{0};  ///< frames delivered
  std::atomic<int> closes{0};
  std::atomic<std::int64_t> lastSeek{-1};
};

class FakeSource : public FrameSource {
 public:
  FakeSource(FakeScript script, std::shared_ptr<FakeCounters> counters)
      : m_script(script), m_counters(std::move(counters)) {}

  SourceTraits traits() const override { return {.kindName = "Fake"}; }
  std::string description() const override { return "fake source"; }
  void open() override {
    const int attempt = ++m_counters->opens;
    if (attempt <= m_script.absentOpens) throw SourceAbsent("no fake at /dev/fake");
    if (m_failedOnce && m_reopensFailed < m_script.failedReopens) {
      ++m_reopensFailed;
      throw SourceError("fake: still gone");
    }
    m_sinceOpen = 0;
    m_open = true;
  }
  void close() override {
    m_open = false;
    ++m_counters->closes;
  }
  bool read(Frame& out) override {
    if (!m_open) return false;
    if (m_script.framesPerOpen >= 0 && m_sinceOpen >= m_script.framesPerOpen) {
      m_failedOnce = true;
      return false;
    }
    ++m_sinceOpen;
    out.image = std::make_shared<const Image>(4, 2);
    out.index = m_counters->reads++;
    out.captured = Clock::now();
    return true;
  }
  bool selfPaced() const override { return m_script.selfPaced; }
  double nominalFps() const override { return m_script.fps; }
  std::string deliveredMode() const override { return "4×2 fake"; }
  bool canStep() const override { return true; }
  bool canReconnect() const override { return m_script.reconnects; }
  std::int64_t frameCount() const override { return 100; }
  bool deliversStill() const override {
    return m_script.stillAfter >= 0 && m_counters->reads.load() >= m_script.stillAfter;
  }
  void seek(std::int64_t frame) override { m_counters->lastSeek = frame; }

 private:
  FakeScript m_script;
  std::shared_ptr<FakeCounters> m_counters;
  bool m_open = false;
  bool m_failedOnce = false;
  int m_sinceOpen = 0;
  int m_reopensFailed = 0;
};

}  // namespace convolab::capture::test
