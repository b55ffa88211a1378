// SPDX-License-Identifier: MIT
// A "PipeWire daemon" that accepts every connection and never answers (hung, stopped with SIGSTOP): a Unix
// socket at $XDG_RUNTIME_DIR/pipewire-0 (the test's own runtime dir, from run_with_private_pipewire.sh) whose
// connections are accepted and kept open, unread, until it is destroyed.
#pragma once

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace convolab::vcam::test {

class SilentDaemon {
 public:
  SilentDaemon() : m_path(std::string(std::getenv("XDG_RUNTIME_DIR")) + "/pipewire-0") {
    m_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::copy(m_path.begin(), m_path.end(), addr.sun_path);
    ::unlink(m_path.c_str());
    m_listening =
        ::bind(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 && ::listen(m_fd, 8) == 0;
    m_thread = std::thread([this] {
      std::vector<int> accepted;
      while (!m_stop) {
        pollfd p{m_fd, POLLIN, 0};
        if (::poll(&p, 1, 20) > 0) accepted.push_back(::accept(m_fd, nullptr, nullptr));
      }
      for (int fd : accepted) ::close(fd);
    });
  }
  ~SilentDaemon() {
    m_stop = true;
    m_thread.join();
    ::close(m_fd);
    ::unlink(m_path.c_str());
  }
  SilentDaemon(const SilentDaemon&) = delete;
  SilentDaemon& operator=(const SilentDaemon&) = delete;

  bool listening() const { return m_listening; }

 private:
  std::string m_path;
  int m_fd = -1;
  bool m_listening = false;
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

}  // namespace convolab::vcam::test
