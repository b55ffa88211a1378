// SPDX-License-Identifier: MIT
// ChildProcess: a helper program started with its standard output on a pipe, read a line at a time, killed
// when it overstays. auto's measurement and a custom kernel's trial run there (convolab-measure).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace convolab {

/// The folder of the running program (/proc/self/exe), or "" when unknown.
std::string ownProgramFolder();

/// A file of `text` in the temporary folder for a child to read, removed when this goes out of scope. `path`
/// is empty when it could not be written.
struct TempTextFile {
  std::string path;
  TempTextFile(const std::string& text, const std::string& prefix);
  ~TempTextFile();
  TempTextFile(const TempTextFile&) = delete;
  TempTextFile& operator=(const TempTextFile&) = delete;
};

class ChildProcess {
 public:
  /// Starts args[0] with `args` (stdin /dev/null, stdout a pipe, stderr inherited); nullopt when it cannot.
  static std::optional<ChildProcess> spawn(const std::vector<std::string>& args);
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&&) = delete;
  ~ChildProcess();  ///< kills and reaps a child still running

  enum class Read { Line, End, Timeout };
  /// The next line of the child's output (without '\n'), waiting until `deadline`. `poll` (if set) is called
  /// every 20 ms while waiting; it may throw (the caller's work was cancelled), which kills the child.
  Read readLine(std::string& line, std::chrono::steady_clock::time_point deadline,
                const std::function<void()>& poll = {});
  /// SIGKILL and reap.
  void kill();
  /// Waits for the child to end; the wait status (WIFEXITED, WTERMSIG…).
  int wait();

 private:
  ChildProcess(pid_t pid, int fd) : m_pid(pid), m_fd(fd) {}
  void closePipe();
  pid_t m_pid = -1;
  int m_fd = -1;
  std::string m_pending;
  bool m_reaped = false;
  int m_status = 0;
};

}  // namespace convolab
