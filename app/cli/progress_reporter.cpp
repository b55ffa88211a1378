// SPDX-License-Identifier: MIT
// ProgressReporter: a carriage-return-redrawn status line on a terminal's stderr.
#include "progress_reporter.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace convolab::cli {

std::string formatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const long s = std::lround(seconds);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

ProgressReporter::ProgressReporter(bool enabled) : m_enabled(enabled) {}

ProgressReporter::~ProgressReporter() {
  finish();
}

void ProgressReporter::start(std::int64_t total, std::string unit, std::string label) {
  std::lock_guard lock(m_mutex);
  m_total = total;
  m_done = 0;
  m_unit = std::move(unit);
  m_label = std::move(label);
  m_start = std::chrono::steady_clock::now();
  m_lastDraw = {};
  drawLocked(true);
}

void ProgressReporter::update(std::int64_t done) {
  std::lock_guard lock(m_mutex);
  m_done = done;
  drawLocked(false);
}

void ProgressReporter::finish() {
  std::lock_guard lock(m_mutex);
  clearLocked();
}

void ProgressReporter::println(std::ostream& os, const std::string& line) {
  std::lock_guard lock(m_mutex);
  clearLocked();
  os << line << "\n";
  os.flush();
  drawLocked(true);
}

void ProgressReporter::clearLocked() {
  if (m_enabled && m_drawn) std::cerr << "\r\033[K" << std::flush;
  m_drawn = false;
}

void ProgressReporter::drawLocked(bool force) {
  if (!m_enabled || m_unit.empty()) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - m_lastDraw < std::chrono::milliseconds(100)) return;
  m_lastDraw = now;
  const double elapsed = std::chrono::duration<double>(now - m_start).count();
  const double rate = elapsed > 0 ? static_cast<double>(m_done) / elapsed : 0;
  std::ostringstream line;
  if (!m_label.empty()) line << m_label << ": ";
  line << m_done;
  if (m_total > 0) line << "/" << m_total;
  line << " " << m_unit;
  if (m_done > 0) {
    line.precision(rate < 10 ? 2 : 0);
    line << std::fixed << ", " << rate << " " << m_unit << "/s";
    if (m_total > 0) line << ", " << formatDuration(static_cast<double>(m_total - m_done) / rate) << " left";
  }
  std::cerr << "\r\033[K" << line.str() << std::flush;
  m_drawn = true;
}

}  // namespace convolab::cli
