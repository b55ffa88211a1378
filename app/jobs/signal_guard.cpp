// SPDX-License-Identifier: MIT
// SignalGuard: the signals blocked everywhere and taken by a sigwait() thread. No handler runs, so no
// disposition matters: neither one a library stands in for a moment nor the default one before ours existed.
#include "signal_guard.hpp"

#include <pthread.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <mutex>
#include <thread>

#include "convolab/atomic_file.hpp"

namespace convolab::jobs {
namespace {

std::atomic<bool> g_stop{false};
// What comes next, not what happens to the file being written: the work may be committing it at this very
// moment, and says which outputs were written and which discarded once it knows.
constexpr const char* kBatchMessage =
    "\nstopping: no new frame or file is started (signal again to quit at once)\n";
std::atomic<const char*> g_message{kBatchMessage};
std::atomic<const char*> g_quitMessage{"\nstopped by a signal\n"};
std::atomic<int> g_guards{0};  // live, installed SignalGuards: while 0 a signal ends the process at once

sigset_t stopSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

void say(const char* message) {
  if (!message) return;
  [[maybe_unused]] const ssize_t n = ::write(2, message, std::strlen(message));
}

// Ends the process as `sig` would have by default, after removing what is being written.
[[noreturn]] void endBy(int sig) {
  say(g_quitMessage.load());
  convolab::removePendingTemporaries();
  std::signal(sig, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  ::raise(sig);
  ::_exit(128 + sig);  // a signal whose default action is not to end the process
}

void takeOne(int sig) {
  if (g_guards.load() == 0) endBy(sig);
  if (g_stop.exchange(true)) {  // the second signal: the user insists
    convolab::removePendingTemporaries();
    ::_exit(kExitInterrupted);
  }
  say(g_message.load());
}

[[noreturn]] void waitForSignals(sigset_t set) {
  for (;;) {
    int sig = 0;
    if (::sigwait(&set, &sig) == 0) takeOne(sig);
  }
}

}  // namespace

void SignalGuard::takeSignals(const char* quitMessage) {
  if (quitMessage) g_quitMessage = quitMessage;
  static std::once_flag once;
  std::call_once(once, [] {
    const sigset_t set = stopSignals();
    ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread(waitForSignals, set).detach();  // ends with the process
  });
}

SignalGuard::SignalGuard(const char* firstSignalMessage) {
  g_message = firstSignalMessage ? firstSignalMessage : kBatchMessage;
  ++g_guards;  // before the signals are taken: there is no moment in which one would end the process
  takeSignals();
}

SignalGuard::~SignalGuard() {
  restore();
}

void SignalGuard::restore() {
  if (!m_installed) return;
  m_installed = false;
  --g_guards;
}

void SignalGuard::setMessage(const char* message) {
  g_message = message;
}

const std::atomic<bool>& SignalGuard::stopFlag() {
  return g_stop;
}

}  // namespace convolab::jobs
