// SPDX-License-Identifier: MIT
// The capture loop: open, pace, read, publish the newest frame; on failure close and retry periodically.
#include "capture_thread.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace convolab::capture {

using std::chrono::steady_clock;

CaptureThread::CaptureThread(std::unique_ptr<FrameSource> source, std::shared_ptr<LatestFrameSlot> slot,
                             FrameCallback onFrame, StatusCallback onStatus,
                             std::chrono::milliseconds retryInterval)
    : m_source(std::move(source)),
      m_slot(std::move(slot)),
      m_onFrame(std::move(onFrame)),
      m_onStatus(std::move(onStatus)),
      m_retryInterval(retryInterval),
      m_thread([this] { run(); }) {}

CaptureThread::~CaptureThread() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_all();
  if (m_thread.joinable()) m_thread.join();
  try {
    m_source->close();
  } catch (...) {  // destructors never throw
  }
}

void CaptureThread::setPaused(bool paused) {
  {
    std::lock_guard lock(m_mutex);
    m_paused = paused;
    m_steps = 0;
  }
  m_wake.notify_all();
}

void CaptureThread::step() {
  {
    std::lock_guard lock(m_mutex);
    if (m_paused) ++m_steps;
  }
  m_wake.notify_all();
}

void CaptureThread::seek(std::int64_t frame) {
  {
    std::lock_guard lock(m_mutex);
    m_seek = std::max<std::int64_t>(0, frame);
    m_seekMs = -1;
  }
  m_wake.notify_all();
}

void CaptureThread::seekMs(double ms) {
  {
    std::lock_guard lock(m_mutex);
    m_seekMs = std::isfinite(ms) ? std::max(0.0, ms) : 0.0;
    m_seek = -1;
  }
  m_wake.notify_all();
}

bool CaptureThread::waitUntil(steady_clock::time_point deadline) {
  std::unique_lock lock(m_mutex);
  m_wake.wait_until(lock, deadline, [&] { return m_stop; });
  return !m_stop;
}

bool CaptureThread::waitForDue(steady_clock::time_point deadline) {
  std::unique_lock lock(m_mutex);
  return !m_wake.wait_until(lock, deadline,
                            [&] { return m_stop || m_paused || m_seek >= 0 || m_seekMs >= 0; });
}

// Pacing: a frame with a time in the source (video files) is due when that time has passed since the
// previous frame was due, so a clip plays in its own duration however irregular its frames (a variable
// rate, gaps where the previous frame stays on screen). After the last frame the clip starts over once the
// last frame has had its time (up to the duration). Frames without a time (the test pattern) come at the
// nominal rate. After opening or a seek the first frame is due at once; after a pause or a step the next
// one counts from the resume; after a stall (a slow decode) it is due at once: no catching up.
steady_clock::time_point CaptureThread::dueTime(const Frame& frame) const {
  using Ms = std::chrono::duration<double, std::milli>;
  const double intervalMs = 1000.0 / std::max(1.0, m_source->nominalFps());
  const auto now = steady_clock::now();
  double afterLastMs = intervalMs;
  if (frame.timestampMs >= 0 && m_lastTimestampMs >= 0) {
    if (frame.timestampMs > m_lastTimestampMs) {
      afterLastMs = frame.timestampMs - m_lastTimestampMs;
    } else {  // started over: the last frame lasts until the end of the clip
      const double durationMs = m_source->durationMs();
      if (durationMs > m_lastTimestampMs) afterLastMs = durationMs - m_lastTimestampMs;
    }
  }
  auto due = m_lastDue + std::chrono::duration_cast<steady_clock::duration>(Ms(afterLastMs));
  if (!m_anchored || now > due + std::chrono::duration_cast<steady_clock::duration>(Ms(intervalMs)))
    due = now;
  return due;
}

void CaptureThread::publish(CaptureState state, std::string message, bool retrying, bool absent) {
  if (!m_onStatus) return;
  CaptureStatus s;
  s.state = state;
  s.kindName = m_source->traits().kindName;
  s.description = m_source->description();
  if (state == CaptureState::Running) s.mode = m_source->deliveredMode();
  s.message = std::move(message);
  s.fps = m_source->nominalFps();
  s.retrying = retrying;
  s.absent = absent;
  s.canStep = m_source->canStep();
  s.still = m_publishedStill = m_source->deliversStill();
  m_onStatus(s);
}

void CaptureThread::run() {
  bool open = false;
  bool everOpened = false;
  bool reportedFailure = false;
  // A frame read but not yet due: kept over a pause (a step shows it), dropped by a seek.
  std::optional<Frame> waiting;
  publish(CaptureState::Opening);
  for (;;) {
    {
      std::lock_guard lock(m_mutex);
      if (m_stop) return;
    }
    if (!open) {
      try {
        m_source->open();
        open = true;
        everOpened = true;
        reportedFailure = false;
        m_anchored = false;
        m_frameCount = m_source->frameCount();
        m_durationMs = m_source->durationMs();
        publish(CaptureState::Running);
      } catch (const std::exception& e) {
        // A source that never opened and cannot be retried (a missing file) stays failed; a camera that
        // is absent or was unplugged is retried periodically, by its stable id.
        const bool retry = everOpened || m_source->canReconnect();
        if (!reportedFailure) {
          publish(everOpened ? CaptureState::Disconnected : CaptureState::Failed, e.what(), retry,
                  dynamic_cast<const SourceAbsent*>(&e) != nullptr);
          reportedFailure = true;
        }
        if (!retry) {
          std::unique_lock lock(m_mutex);
          m_wake.wait(lock, [&] { return m_stop; });
          return;
        }
        if (!waitUntil(steady_clock::now() + m_retryInterval)) return;
        continue;
      }
    }

    bool paused, stepping = false;
    std::int64_t seekTo = -1;
    double seekToMs = -1;
    {
      std::unique_lock lock(m_mutex);
      if (m_paused && m_steps == 0 && m_seek < 0 && m_seekMs < 0 && !m_source->selfPaced()) {
        m_wake.wait(lock, [&] { return m_stop || !m_paused || m_steps > 0 || m_seek >= 0 || m_seekMs >= 0; });
        if (m_stop) return;
        m_lastDue = steady_clock::now();  // resumed: the frame shown last is shown from now on
      }
      paused = m_paused;
      std::swap(seekTo, m_seek);
      std::swap(seekToMs, m_seekMs);
      if (paused && (seekTo >= 0 || seekToMs >= 0)) {
        stepping = true;  // show the frame sought
      } else if (paused && m_steps > 0) {
        --m_steps;
        stepping = true;
      }
    }
    if (seekTo >= 0 || seekToMs >= 0) {
      try {
        if (seekToMs >= 0)
          m_source->seekMs(seekToMs);
        else
          m_source->seek(seekTo);
      } catch (...) {  // a failed seek leaves the position where it was
      }
      waiting.reset();
      m_anchored = false;
    }

    if (!waiting) {
      Frame frame;
      bool ok = false;
      std::string error;
      try {
        ok = m_source->read(frame);
      } catch (const std::exception& e) {
        error = e.what();
      }
      if (!ok) {
        try {
          m_source->close();
        } catch (...) {
        }
        open = false;
        reportedFailure = true;
        if (error.empty()) error = m_source->traits().kindName + " stopped delivering frames";
        if (!m_source->canReconnect()) {
          // A file that cannot be decoded further fails the same way when reopened: reopening would play
          // the part before the failure again and again. Say why and stay failed.
          publish(CaptureState::Failed, error, false);
          std::unique_lock lock(m_mutex);
          m_wake.wait(lock, [&] { return m_stop; });
          return;
        }
        publish(CaptureState::Disconnected, error, true);
        if (!waitUntil(steady_clock::now() + m_retryInterval)) return;
        continue;
      }
      m_frameCount = m_source->frameCount();
      // A one-frame clip is known only at its end: from then on it reads as a still image does.
      if (m_source->deliversStill() != m_publishedStill) publish(CaptureState::Running);
      if (paused && !stepping) continue;  // a paused camera: read to keep its buffers fresh, deliver nothing
      waiting = std::move(frame);
    }

    auto due = steady_clock::now();
    if (!stepping && !m_source->selfPaced()) {
      due = dueTime(*waiting);
      // Stopped, paused or asked to seek before the frame was due: the loop takes it from here.
      if (!waitForDue(due)) continue;
    }
    m_anchored = true;
    m_lastDue = due;
    m_lastTimestampMs = waiting->timestampMs;
    // A frame that waited to be due counts from when it is delivered: latency is not the wait for its time.
    if (!m_source->selfPaced()) waiting->captured = steady_clock::now();
    m_position = m_source->position();
    m_positionMs = waiting->timestampMs;
    if (m_slot->put(std::move(*waiting)) && m_onFrame) m_onFrame();
    waiting.reset();
  }
}

}  // namespace convolab::capture
