// SPDX-License-Identifier: MIT
// SignalGuard: sigaction handlers that set a flag; a second signal removes live temporaries and _exit(130)s.
#include "signal_guard.hpp"

#include <unistd.h>

#include <csignal>
#include <cstddef>

#include "convolab/atomic_file.hpp"

namespace convolab::jobs {
namespace {

std::atomic<bool> g_stop{false};
// What comes next, not what happens to the file being written: the work may be committing it at this very
// moment, and says which outputs were written and which discarded once it knows.
constexpr const char* kBatchMessage =
    "\nstopping: no new frame or file is started (signal again to quit at once)\n";
std::atomic<const char*> g_message{kBatchMessage};
struct sigaction g_oldInt {
}, g_oldTerm{};

extern "C" void onStopSignal(int) {
  if (g_stop.exchange(true)) {
    // Second signal: the user insists. Only async-signal-safe calls from here.
    convolab::removePendingTemporaries();
    ::_exit(kExitInterrupted);
  }
  const char* msg = g_message.load();
  if (!msg) return;
  std::size_t len = 0;
  while (msg[len]) ++len;  // strlen is not on the async-signal-safe list
  [[maybe_unused]] const ssize_t n = ::write(2, msg, len);
}

}  // namespace

SignalGuard::SignalGuard(const char* firstSignalMessage) {
  g_message = firstSignalMessage ? firstSignalMessage : kBatchMessage;
  struct sigaction sa {};
  sa.sa_handler = onStopSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &sa, &g_oldInt);
  ::sigaction(SIGTERM, &sa, &g_oldTerm);
}

SignalGuard::~SignalGuard() {
  restore();
}

void SignalGuard::restore() {
  if (!m_installed) return;
  m_installed = false;
  ::sigaction(SIGINT, &g_oldInt, nullptr);
  ::sigaction(SIGTERM, &g_oldTerm, nullptr);
}

void SignalGuard::setMessage(const char* message) {
  g_message = message;
}

const std::atomic<bool>& SignalGuard::stopFlag() {
  return g_stop;
}

}  // namespace convolab::jobs
