// SPDX-License-Identifier: MIT
// The capture loop: open, pace, read, publish the newest frame; on failure close and retry periodically.
#include "capture_thread.hpp"

#include <algorithm>
#include <cmath>

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
  }
  m_wake.notify_all();
}

bool CaptureThread::waitUntil(steady_clock::time_point deadline) {
  std::unique_lock lock(m_mutex);
  m_wake.wait_until(lock, deadline, [&] { return m_stop; });
  return !m_stop;
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
  m_onStatus(s);
}

void CaptureThread::run() {
  bool open = false;
  bool everOpened = false;
  bool reportedFailure = false;
  auto nextDue = steady_clock::now();
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
        nextDue = steady_clock::now();
        m_frameCount = m_source->frameCount();
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
    {
      std::unique_lock lock(m_mutex);
      if (m_paused && m_steps == 0 && m_seek < 0 && !m_source->selfPaced()) {
        m_wake.wait(lock, [&] { return m_stop || !m_paused || m_steps > 0 || m_seek >= 0; });
        if (m_stop) return;
        nextDue = steady_clock::now();
      }
      paused = m_paused;
      std::swap(seekTo, m_seek);
      if (paused && seekTo >= 0) {
        stepping = true;  // show the frame sought
      } else if (paused && m_steps > 0) {
        --m_steps;
        stepping = true;
      }
    }
    if (seekTo >= 0) {
      try {
        m_source->seek(seekTo);
      } catch (...) {  // a failed seek leaves the position where it was
      }
      nextDue = steady_clock::now();
    }

    if (!m_source->selfPaced() && !stepping) {
      // Files and the pattern are paced here at their nominal rate; after a stall, do not try to catch up.
      const auto period = std::chrono::duration_cast<steady_clock::duration>(
          std::chrono::duration<double>(1.0 / std::max(1.0, m_source->nominalFps())));
      if (!waitUntil(nextDue)) return;
      nextDue += period;
      if (steady_clock::now() > nextDue + period) nextDue = steady_clock::now() + period;
    }

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
      publish(CaptureState::Disconnected,
              error.empty() ? m_source->traits().kindName + " stopped delivering frames" : error, true);
      if (!waitUntil(steady_clock::now() + m_retryInterval)) return;
      continue;
    }
    m_position = m_source->position();
    m_frameCount = m_source->frameCount();
    if (paused && !stepping) continue;  // a paused camera: read to keep its buffers fresh, deliver nothing
    if (m_slot->put(std::move(frame)) && m_onFrame) m_onFrame();
  }
}

}  // namespace convolab::capture
