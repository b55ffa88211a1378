// SPDX-License-Identifier: MIT
#include "pipewire/connection.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace convolab::pipewire {

void ensureInitialised() {
  static std::once_flag initialised;
  std::call_once(initialised, [] { pw_init(nullptr, nullptr); });
}

std::string socketDescription() {
  const char* remote = std::getenv("PIPEWIRE_REMOTE");
  const std::string name = remote && *remote ? remote : "pipewire-0";
  if (!name.empty() && name[0] == '/') return name;
  const char* dir = std::getenv("PIPEWIRE_RUNTIME_DIR");
  if (!dir || !*dir) dir = std::getenv("XDG_RUNTIME_DIR");
  return dir && *dir ? std::string(dir) + "/" + name : name;
}

std::string noAnswerMessage() {
  return "PipeWire does not answer: " + socketDescription() +
         " accepted the connection but sent nothing in " + std::to_string(kAnswerTimeout.count() / 1000) +
         " s";
}

Connection::Connection(const char* threadName) {
  ensureInitialised();
  m_loop = pw_thread_loop_new(threadName, nullptr);
  m_context = pw_context_new(pw_thread_loop_get_loop(m_loop), nullptr, 0);
}

Connection::~Connection() {
  pw_thread_loop_lock(m_loop);
  disconnectCore();
  pw_thread_loop_unlock(m_loop);
  pw_thread_loop_stop(m_loop);
  if (m_context) pw_context_destroy(m_context);
  pw_thread_loop_destroy(m_loop);
}

bool Connection::connectCore(std::string* why) {
  if (m_core) return true;
  m_core = m_context ? pw_context_connect(m_context, nullptr, 0) : nullptr;
  if (!m_core && why) *why = std::strerror(errno);
  return m_core != nullptr;
}

void Connection::disconnectCore() {
  if (!m_core) return;
  pw_core_disconnect(m_core);
  m_core = nullptr;
}

namespace {

struct SyncWait {
  pw_thread_loop* loop;
  int seq = -1;
  bool done = false;
  bool failed = false;

  static void onDone(void* data, std::uint32_t id, int seq) {
    auto* self = static_cast<SyncWait*>(data);
    if (id != PW_ID_CORE || seq != self->seq) return;
    self->done = true;
    pw_thread_loop_signal(self->loop, false);
  }
  static void onError(void* data, std::uint32_t id, int, int res, const char*) {
    auto* self = static_cast<SyncWait*>(data);
    if (id != PW_ID_CORE || res != -EPIPE) return;  // only a lost connection ends the wait early
    self->failed = true;
    pw_thread_loop_signal(self->loop, false);
  }
};

}  // namespace

pw_stream_events streamEvents(void (*stateChanged)(void*, pw_stream_state, pw_stream_state, const char*),
                              void (*paramChanged)(void*, std::uint32_t, const spa_pod*),
                              void (*process)(void*)) {
  pw_stream_events e{};
  e.version = PW_VERSION_STREAM_EVENTS;
  e.state_changed = stateChanged;
  e.param_changed = paramChanged;
  e.process = process;
  return e;
}

bool Connection::roundTrip(std::chrono::milliseconds timeout) {
  if (!m_core) return false;
  SyncWait wait{m_loop};
  pw_core_events events{};
  events.version = PW_VERSION_CORE_EVENTS;
  events.done = &SyncWait::onDone;
  events.error = &SyncWait::onError;
  spa_hook listener{};
  pw_core_add_listener(m_core, &listener, &events, &wait);
  wait.seq = pw_core_sync(m_core, PW_ID_CORE, 0);
  timespec deadline{};
  pw_thread_loop_get_time(m_loop, &deadline, std::chrono::nanoseconds(timeout).count());
  // Wakes on done, on a lost connection, or at the deadline (timed_wait_full then returns an error).
  while (!wait.done && !wait.failed)
    if (pw_thread_loop_timed_wait_full(m_loop, &deadline) != 0) break;
  spa_hook_remove(&listener);
  return wait.done;
}

}  // namespace convolab::pipewire
