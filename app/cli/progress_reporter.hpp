// SPDX-License-Identifier: MIT
// ProgressReporter: "done/total, rate, time left" on stderr when it is a terminal, redrawn in place at most
// ten times a second; other output goes through it so the progress line never garbles it.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <mutex>
#include <string>

namespace convolab::cli {

class ProgressReporter {
 public:
  /// `enabled`: draw the live line (callers pass "stderr is a terminal and not --quiet").
  explicit ProgressReporter(bool enabled);
  ~ProgressReporter();

  /// Starts a new count of `total` `unit`s ("files", "frames"); total ≤ 0 when unknown.
  void start(std::int64_t total, std::string unit, std::string label = {});
  /// `done` of the total are finished. Thread-safe; draws at most every 100 ms.
  void update(std::int64_t done);
  /// Clears the live line (call before the summary).
  void finish();
  /// Prints one line on `os` (stdout or stderr) without mixing it into the live line.
  void println(std::ostream& os, const std::string& line);

  bool enabled() const { return m_enabled; }

 private:
  void drawLocked(bool force);
  void clearLocked();

  bool m_enabled;
  std::mutex m_mutex;
  std::int64_t m_total = 0, m_done = 0;
  std::string m_unit, m_label;
  std::chrono::steady_clock::time_point m_start, m_lastDraw;
  bool m_drawn = false;
};

/// "1:05" / "1:02:03" for a number of seconds.
std::string formatDuration(double seconds);

}  // namespace convolab::cli
