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

bool CaptureThread::stopRequested() {
  std::lock_guard lock(m_mutex);
  return m_stop;
}

void CaptureThread::waitForStop() {
  std::unique_lock lock(m_mutex);
  m_wake.wait(lock, [&] { return m_stop; });
}

CaptureThread::Step CaptureThread::openSource(LoopState& loop) {
  try {
    m_source->open();
    loop.open = true;
    loop.everOpened = true;
    loop.reportedFailure = false;
    m_anchored = false;
    m_frameCount = m_source->frameCount();
    m_durationMs = m_source->durationMs();
    publish(CaptureState::Running);
    return Step::Go;
  } catch (const std::exception& e) {
    // A source that never opened and cannot be retried (a missing file) stays failed; a camera that
    // is absent or was unplugged is retried periodically, by its stable id.
    const bool retry = loop.everOpened || m_source->canReconnect();
    if (!loop.reportedFailure) {
      publish(loop.everOpened ? CaptureState::Disconnected : CaptureState::Failed, e.what(), retry,
              dynamic_cast<const SourceAbsent*>(&e) != nullptr);
      loop.reportedFailure = true;
    }
    if (!retry) {
      waitForStop();
      return Step::Stop;
    }
    return waitUntil(steady_clock::now() + m_retryInterval) ? Step::Again : Step::Stop;
  }
}

std::optional<CaptureThread::Controls> CaptureThread::takeControls() {
  Controls c;
  std::unique_lock lock(m_mutex);
  if (m_paused && m_steps == 0 && m_seek < 0 && m_seekMs < 0 && !m_source->selfPaced()) {
    m_wake.wait(lock, [&] { return m_stop || !m_paused || m_steps > 0 || m_seek >= 0 || m_seekMs >= 0; });
    if (m_stop) return std::nullopt;
    m_lastDue = steady_clock::now();  // resumed: the frame shown last is shown from now on
  }
  c.paused = m_paused;
  std::swap(c.seekTo, m_seek);
  std::swap(c.seekToMs, m_seekMs);
  if (c.paused && (c.seekTo >= 0 || c.seekToMs >= 0)) {
    c.stepping = true;  // show the frame sought
  } else if (c.paused && m_steps > 0) {
    --m_steps;
    c.stepping = true;
  }
  return c;
}

void CaptureThread::applySeek(const Controls& controls, LoopState& loop) {
  if (controls.seekTo < 0 && controls.seekToMs < 0) return;
  try {
    if (controls.seekToMs >= 0)
      m_source->seekMs(controls.seekToMs);
    else
      m_source->seek(controls.seekTo);
  } catch (...) {  // a failed seek leaves the position where it was
  }
  loop.waiting.reset();
  m_anchored = false;
}

CaptureThread::Step CaptureThread::readFrame(const Controls& controls, LoopState& loop) {
  Frame frame;
  bool ok = false;
  std::string error;
  try {
    ok = m_source->read(frame);
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (!ok) return readFailed(std::move(error), loop);
  m_frameCount = m_source->frameCount();
  // A one-frame clip is known only at its end: from then on it reads as a still image does.
  if (m_source->deliversStill() != m_publishedStill) publish(CaptureState::Running);
  if (controls.paused && !controls.stepping)
    return Step::Again;  // a paused camera: read to keep its buffers fresh, deliver nothing
  loop.waiting = std::move(frame);
  return Step::Go;
}

CaptureThread::Step CaptureThread::readFailed(std::string error, LoopState& loop) {
  try {
    m_source->close();
  } catch (...) {
  }
  loop.open = false;
  loop.reportedFailure = true;
  if (error.empty()) error = m_source->traits().kindName + " stopped delivering frames";
  if (!m_source->canReconnect()) {
    // A file that cannot be decoded further fails the same way when reopened: reopening would play
    // the part before the failure again and again. Say why and stay failed.
    publish(CaptureState::Failed, error, false);
    waitForStop();
    return Step::Stop;
  }
  publish(CaptureState::Disconnected, error, true);
  return waitUntil(steady_clock::now() + m_retryInterval) ? Step::Again : Step::Stop;
}

void CaptureThread::deliverWhenDue(bool stepping, LoopState& loop) {
  auto due = steady_clock::now();
  if (!stepping && !m_source->selfPaced()) {
    due = dueTime(*loop.waiting);
    // Stopped, paused or asked to seek before the frame was due: the loop takes it from here.
    if (!waitForDue(due)) return;
  }
  m_anchored = true;
  m_lastDue = due;
  m_lastTimestampMs = loop.waiting->timestampMs;
  // A frame that waited to be due counts from when it is delivered: latency is not the wait for its time.
  if (!m_source->selfPaced()) loop.waiting->captured = steady_clock::now();
  m_position = m_source->position();
  m_positionMs = loop.waiting->timestampMs;
  if (m_slot->put(std::move(*loop.waiting)) && m_onFrame) m_onFrame();
  loop.waiting.reset();
}

// Open (and reopen after a failure), take the controls (pause, step, seek), read, deliver when due.
void CaptureThread::run() {
  LoopState loop;
  publish(CaptureState::Opening);
  while (!stopRequested()) {
    if (!loop.open) {
      const Step opened = openSource(loop);
      if (opened == Step::Stop) return;
      if (opened == Step::Again) continue;
    }
    const std::optional<Controls> controls = takeControls();
    if (!controls) return;
    applySeek(*controls, loop);
    if (!loop.waiting) {
      const Step read = readFrame(*controls, loop);
      if (read == Step::Stop) return;
      if (read == Step::Again) continue;
    }
    deliverWhenDue(controls->stepping, loop);
  }
}

}  // namespace convolab::capture
