// SPDX-License-Identifier: MIT
// ChildProcess: posix_spawn, a pipe, poll with a deadline.
#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <utility>

extern char** environ;

namespace convolab {

std::string ownProgramFolder() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

TempTextFile::TempTextFile(const std::string& text, const std::string& prefix) {
  std::string name = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0) return;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (ok)
    path = name;
  else
    ::unlink(name.c_str());
}

TempTextFile::~TempTextFile() {
  if (!path.empty()) ::unlink(path.c_str());
}

std::optional<ChildProcess> ChildProcess::spawn(const std::vector<std::string>& args) {
  if (args.empty()) return std::nullopt;
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  int pipeFds[2];
  if (::pipe2(pipeFds, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, copy[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipeFds[1]);
  if (rc != 0) {
    ::close(pipeFds[0]);
    return std::nullopt;
  }
  return ChildProcess(pid, pipeFds[0]);
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : m_pid(std::exchange(other.m_pid, -1)),
      m_fd(std::exchange(other.m_fd, -1)),
      m_pending(std::move(other.m_pending)),
      m_reaped(other.m_reaped),
      m_status(other.m_status) {}

ChildProcess::~ChildProcess() {
  if (m_pid > 0 && !m_reaped) kill();
  closePipe();
}

void ChildProcess::closePipe() {
  if (m_fd >= 0) ::close(m_fd);
  m_fd = -1;
}

ChildProcess::Read ChildProcess::readLine(std::string& line, std::chrono::steady_clock::time_point deadline,
                                          const std::function<void()>& poll) {
  for (;;) {
    if (const size_t eol = m_pending.find('\n'); eol != std::string::npos) {
      line = m_pending.substr(0, eol);
      m_pending.erase(0, eol + 1);
      return Read::Line;
    }
    if (m_fd < 0) return Read::End;
    if (poll) {
      try {
        poll();
      } catch (...) {
        kill();
        throw;
      }
    }
    if (std::chrono::steady_clock::now() >= deadline) return Read::Timeout;
    pollfd p{m_fd, POLLIN, 0};
    if (::poll(&p, 1, 20) <= 0) continue;
    char buf[4096];
    const ssize_t n = ::read(m_fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      closePipe();
      if (!m_pending.empty()) {
        line = std::exchange(m_pending, {});
        return Read::Line;
      }
      return Read::End;
    }
    m_pending.append(buf, static_cast<size_t>(n));
  }
}

void ChildProcess::kill() {
  if (m_pid <= 0 || m_reaped) return;
  ::kill(m_pid, SIGKILL);
  wait();
}

int ChildProcess::wait() {
  if (m_pid <= 0) return 0;
  if (!m_reaped) {
    while (::waitpid(m_pid, &m_status, 0) < 0 && errno == EINTR) {
    }
    m_reaped = true;
  }
  closePipe();
  return m_status;
}

}  // namespace convolab
