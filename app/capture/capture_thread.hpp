// SPDX-License-Identifier: MIT
// CaptureThread: reads a FrameSource on its own thread, hands the newest frame over, reconnects on failure.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "frame_source.hpp"
#include "latest_frame_slot.hpp"

namespace convolab::capture {

enum class CaptureState {
  Opening,       ///< open() in progress (a camera can take a second)
  Running,       ///< delivering frames
  Failed,        ///< could not be opened at all (`retrying` says whether it keeps trying)
  Disconnected,  ///< failed after delivering frames; retrying to reconnect to the same source
};

struct CaptureStatus {
  CaptureState state = CaptureState::Opening;
  std::string kindName;     ///< the source's kind, for people ("Camera")
  std::string description;  ///< the source, for people
  std::string mode;         ///< what is delivered ("1280×720 MJPG @ 30 fps"); empty until Running
  std::string message;      ///< why it failed, for Failed/Disconnected
  double fps = 0;           ///< nominal rate
  bool retrying = false;
  bool absent = false;  ///< Failed/Disconnected because the device is not there (SourceAbsent)
  bool canStep = false;
  bool still = false;  ///< FrameSource::deliversStill(): republished when a read changes it
};

class CaptureThread {
 public:
  using FrameCallback = std::function<void()>;                       ///< a frame waits in the slot
  using StatusCallback = std::function<void(const CaptureStatus&)>;  ///< called on the capture thread

  /// Starts reading at once. `slot` receives frames; `onFrame` is called when the slot goes from empty
  /// to full (wake the consumer once); `onStatus` on every state change.
  CaptureThread(std::unique_ptr<FrameSource> source, std::shared_ptr<LatestFrameSlot> slot,
                FrameCallback onFrame, StatusCallback onStatus,
                std::chrono::milliseconds retryInterval = std::chrono::milliseconds(1000));
  /// Stops and joins (waits at most for one blocking camera read).
  ~CaptureThread();
  CaptureThread(const CaptureThread&) = delete;
  CaptureThread& operator=(const CaptureThread&) = delete;

  /// Paused: file sources stop reading; cameras keep reading (so buffers stay fresh) but deliver nothing.
  void setPaused(bool paused);
  /// While paused: deliver exactly one more frame.
  void step();
  /// Asks the source to move to file frame `frame` (video files; thread-safe, applied before the next
  /// read). While paused, the frame sought is delivered too.
  void seek(std::int64_t frame);
  /// As seek(), to the frame on screen at `ms` of the source's timeline (sources with durationMs() > 0).
  void seekMs(double ms);
  /// The file position of the newest frame delivered and the number of frames (video files; -1 and 0
  /// otherwise).
  std::int64_t position() const { return m_position.load(); }
  std::int64_t frameCount() const { return m_frameCount.load(); }
  /// The time of the newest frame delivered (Frame::timestampMs: -1 without a timeline) and the source's
  /// duration (0 without a timeline), in ms.
  double positionMs() const { return m_positionMs.load(); }
  double durationMs() const { return m_durationMs.load(); }

 private:
  /// After a step of the loop: carry on with this round, start the next round, or leave the thread.
  enum class Step { Go, Again, Stop };
  /// The loop's own state, on the capture thread only.
  struct LoopState {
    bool open = false;
    bool everOpened = false;
    bool reportedFailure = false;
    /// Read but not yet due: kept over a pause (a step shows it), dropped by a seek.
    std::optional<Frame> waiting;
  };
  /// What was asked for (pause, step, seek) since the last round, taken under the lock.
  struct Controls {
    bool paused = false;
    bool stepping = false;     ///< deliver the next frame although paused (a step, or the frame sought)
    std::int64_t seekTo = -1;  ///< -1: none
    double seekToMs = -1;      ///< -1: none
  };

  void run();
  bool stopRequested();
  /// Waits until the thread is stopped (a source that stays failed).
  void waitForStop();
  Step openSource(LoopState& loop);
  /// Waits while paused with nothing to do; nullopt when stopping.
  std::optional<Controls> takeControls();
  void applySeek(const Controls& controls, LoopState& loop);
  /// Reads the next frame into `loop.waiting` (a paused camera reads and drops it).
  Step readFrame(const Controls& controls, LoopState& loop);
  /// Closes the source, says why, and retries it (a camera) or stays failed (a file).
  Step readFailed(std::string error, LoopState& loop);
  /// Waits until the waiting frame is due (see Pacing) and puts it in the slot.
  void deliverWhenDue(bool stepping, LoopState& loop);
  void publish(CaptureState state, std::string message = {}, bool retrying = false, bool absent = false);
  /// Sleeps until `deadline` or until woken by stop; returns false when stopping.
  bool waitUntil(std::chrono::steady_clock::time_point deadline);
  /// Sleeps until `deadline`, or until stopped, paused or asked to seek; returns true when the deadline
  /// came (then the frame waiting for it is due).
  bool waitForDue(std::chrono::steady_clock::time_point deadline);
  /// When `frame` is due on screen (see Pacing in capture_thread.cpp).
  std::chrono::steady_clock::time_point dueTime(const Frame& frame) const;

  std::unique_ptr<FrameSource> m_source;
  std::shared_ptr<LatestFrameSlot> m_slot;
  FrameCallback m_onFrame;
  StatusCallback m_onStatus;
  std::chrono::milliseconds m_retryInterval;

  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stop = false;
  bool m_paused = false;
  int m_steps = 0;
  std::int64_t m_seek = -1;  // pending seek target, -1: none
  double m_seekMs = -1;      // pending seek by time, -1: none
  std::atomic<std::int64_t> m_position{-1};
  std::atomic<std::int64_t> m_frameCount{0};
  std::atomic<double> m_positionMs{-1};
  std::atomic<double> m_durationMs{0};
  // Pacing, on the capture thread only: when the frame delivered last was due (or, after a pause, when
  // playing resumed) and its time in the source (-1: none); `m_anchored` false after opening or a seek: the
  // next frame is due at once and the ones after it count from there.
  bool m_anchored = false;
  std::chrono::steady_clock::time_point m_lastDue{};
  double m_lastTimestampMs = -1;
  bool m_publishedStill = false;  // the `still` of the newest status (a one-frame clip says so after a read)
  std::thread m_thread;           // last: starts after every member above is ready
};

}  // namespace convolab::capture
