// SPDX-License-Identifier: MIT
#include "private_pipewire.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

extern char** environ;

namespace convolab::vcam::test {

namespace {

std::string runtimeDir() {
  const char* dir = std::getenv("XDG_RUNTIME_DIR");
  return dir ? dir : "";
}

// Output goes to a log in the runtime dir (removed with it), not into the test's output.
pid_t spawn(const char* program) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string log = runtimeDir() + "/" + program + ".log";
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  char* argv[] = {const_cast<char*>(program), nullptr};
  pid_t pid = -1;
  if (posix_spawnp(&pid, program, &actions, nullptr, argv, environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

bool acceptsConnections(const std::string& socketPath) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, socketPath.c_str(), sizeof(addr.sun_path) - 1);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return ok;
}

void killAndReap(pid_t& pid) {
  if (pid <= 0) return;
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  pid = -1;
}

}  // namespace

std::string PrivatePipeWire::unavailableReason() {
  if (const char* skip = std::getenv("CONVOLAB_PIPEWIRE_SKIP")) return skip;
  if (runtimeDir().find("convolab-pw.") == std::string::npos)
    return "not run through run_with_private_pipewire.sh (it would meet the desktop's PipeWire)";
  return {};
}

bool PrivatePipeWire::start() {
  const std::string socket = runtimeDir() + "/pipewire-0";
  m_pipewire = spawn("pipewire");
  if (m_pipewire <= 0) return false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!acceptsConnections(socket)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  m_wireplumber = spawn("wireplumber");  // links consumers to the node they target
  return m_wireplumber > 0;
}

void PrivatePipeWire::kill() {
  killAndReap(m_wireplumber);
  killAndReap(m_pipewire);
}

}  // namespace convolab::vcam::test
