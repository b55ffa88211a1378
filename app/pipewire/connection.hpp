// SPDX-License-Identifier: MIT
// Connection: one client connection to the session's PipeWire on a thread loop of its own: the set-up that
// the camera source, the node listing and the virtual camera share, and the bounded round trip that tells a
// daemon that answers from one that only accepted the connection.
#pragma once

#include <pipewire/pipewire.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace convolab::pipewire {

/// How long a wait on the daemon (a round trip, a node's facts) may take before it counts as unanswered.
inline constexpr std::chrono::milliseconds kAnswerTimeout{2000};

/// pw_init, once per process; every user of libpipewire calls it first.
void ensureInitialised();

/// The socket a connection goes to ($PIPEWIRE_REMOTE or pipewire-0 in $PIPEWIRE_RUNTIME_DIR or
/// $XDG_RUNTIME_DIR), for messages.
std::string socketDescription();

/// "PipeWire does not answer: <socket> accepted the connection but sent nothing in 2 s".
std::string noAnswerMessage();

/// A stream's events for pw_stream_add_listener with the three a ConvoLab stream handles: its state, its
/// format (param) and its buffers. Callers keep the result in a static (libpipewire keeps the pointer).
pw_stream_events streamEvents(void (*stateChanged)(void*, pw_stream_state, pw_stream_state, const char*),
                              void (*paramChanged)(void*, std::uint32_t, const spa_pod*),
                              void (*process)(void*));

class Connection {
 public:
  /// Makes the thread loop (named `threadName`) and its context; the thread starts with start().
  explicit Connection(const char* threadName);
  /// Disconnects and stops the thread.
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void start() { pw_thread_loop_start(m_loop); }
  void lock() { pw_thread_loop_lock(m_loop); }
  void unlock() { pw_thread_loop_unlock(m_loop); }

  /// Connects the core (on the loop's thread, or with the loop locked). False, with the reason in `why`, when
  /// no daemon listens: that fails at once (the socket is missing).
  bool connectCore(std::string* why = nullptr);
  void disconnectCore();

  /// A sync sent and its answer awaited, with the loop locked by the caller (never on the loop's thread):
  /// false when the daemon did not answer within `timeout` (hung, stopped, or no PipeWire at all behind the
  /// socket) or the connection failed. Events queued before the sync (registry globals, node info) have
  /// arrived when it returns true.
  bool roundTrip(std::chrono::milliseconds timeout = kAnswerTimeout);

  pw_thread_loop* threadLoop() const { return m_loop; }
  pw_loop* loop() const { return pw_thread_loop_get_loop(m_loop); }
  pw_context* context() const { return m_context; }
  pw_core* core() const { return m_core; }

 private:
  pw_thread_loop* m_loop = nullptr;
  pw_context* m_context = nullptr;
  pw_core* m_core = nullptr;
};

}  // namespace convolab::pipewire
