// SPDX-License-Identifier: MIT
// The run's 5 s windows: counts kept per window as frames and counter samples come, nothing per frame.
#include "stats/run_windows.hpp"

#include <algorithm>
#include <cmath>

namespace convolab::gui {

namespace {
using Duration = RunWindows::TimePoint::duration;

/// The window holding `d` after the start (d ≥ 0): [k·W, (k+1)·W).
std::size_t floorIndex(Duration d) {
  return static_cast<std::size_t>(d / RunWindows::kWindow);
}
/// The number of windows that begin before `d` (d > 0).
std::size_t ceilIndex(Duration d) {
  return static_cast<std::size_t>((d + Duration(RunWindows::kWindow) - Duration(1)) / RunWindows::kWindow);
}
double ms(Duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}
}  // namespace

std::optional<double> RunWindow::ratio() const {
  if (delivered == 0) return std::nullopt;
  return static_cast<double>(displayed) / static_cast<double>(delivered);
}

void RunWindows::reset() {
  *this = RunWindows();
}

RunWindows::Window& RunWindows::at(std::size_t index) {
  if (m_windows.size() <= index) m_windows.resize(index + 1);
  return m_windows[index];
}

void RunWindows::start(TimePoint when) {
  m_started = true;
  m_start = when;
  m_windows.assign(1, Window{});
  if (m_lastSample) {
    m_windows[0].startCount = m_lastSample->count;
    m_windows[0].haveStartCount = true;
  }
}

void RunWindows::addDisplayed(TimePoint when) {
  if (m_started && when >= m_start) {
    ++at(floorIndex(when - m_start)).displayed;
    // The gap (previous, when) in every window it overlaps, at its full length: a freeze across a boundary
    // shows in both windows, and one that ends on a boundary only in the window before it.
    if (m_lastDisplayed && when > *m_lastDisplayed) {
      const double gap = ms(when - *m_lastDisplayed);
      const std::size_t first = *m_lastDisplayed < m_start ? 0 : floorIndex(*m_lastDisplayed - m_start);
      const std::size_t end = ceilIndex(when - m_start);
      for (std::size_t k = first; k < end; ++k) at(k).maxGapMs = std::max(at(k).maxGapMs, gap);
    }
  }
  m_lastDisplayed = when;
}

void RunWindows::sampleSource(TimePoint when, std::uint64_t delivered) {
  if (m_lastSample && delivered < m_lastDelivered) m_base += m_lastDelivered;  // a new source counts from 0
  m_lastDelivered = delivered;
  const Sample sample{when, static_cast<double>(m_base + delivered)};
  if (m_started) {
    Window& first = m_windows[0];
    if (!first.haveStartCount) {  // no sample before the start: count from this one
      first.startCount = sample.count;
      first.haveStartCount = true;
    }
    // The count at each window boundary in (previous sample, this one], interpolated between the two.
    if (!m_lastSample || m_lastSample->when < when) {
      const Sample previous = m_lastSample ? *m_lastSample : Sample{m_start, sample.count};
      std::size_t k = previous.when < m_start ? 1 : floorIndex(previous.when - m_start) + 1;
      for (; boundary(k) <= when; ++k) {
        const double share = std::chrono::duration<double>(boundary(k) - previous.when).count() /
                             std::chrono::duration<double>(when - previous.when).count();
        Window& w = at(k);
        w.startCount = previous.count + (sample.count - previous.count) * share;
        w.haveStartCount = true;
      }
    }
  }
  m_lastSample = sample;
}

std::vector<RunWindow> RunWindows::windows() const {
  std::vector<RunWindow> out;
  if (!m_started || !m_lastSample || m_lastSample->when <= m_start) return out;
  const TimePoint end = m_lastSample->when;
  const std::size_t n = ceilIndex(end - m_start);
  for (std::size_t k = 0; k < n; ++k) {
    const Window w = k < m_windows.size() ? m_windows[k] : Window{};
    const double endCount =
        k + 1 < n && k + 1 < m_windows.size() ? m_windows[k + 1].startCount : m_lastSample->count;
    RunWindow r;
    r.startS = static_cast<double>(k) * std::chrono::duration<double>(kWindow).count();
    r.seconds = std::chrono::duration<double>(std::min(end, boundary(k + 1)) - boundary(k)).count();
    r.partial = end < boundary(k + 1);
    r.delivered =
        static_cast<std::uint64_t>(std::max(0LL, std::llround(endCount) - std::llround(w.startCount)));
    r.displayed = w.displayed;
    r.maxDisplayGapMs = w.maxGapMs;
    out.push_back(r);
  }
  // Frames painted at the run's end or after it (no counter sample since) count in its last window.
  for (std::size_t k = n; k < m_windows.size(); ++k) {
    out.back().displayed += m_windows[k].displayed;
    out.back().maxDisplayGapMs = std::max(out.back().maxDisplayGapMs, m_windows[k].maxGapMs);
  }
  return out;
}

std::optional<double> RunWindows::minRatio(const std::vector<RunWindow>& windows) {
  const bool anyComplete =
      std::any_of(windows.begin(), windows.end(), [](const RunWindow& w) { return !w.partial; });
  std::optional<double> lowest;
  for (const RunWindow& w : windows) {
    const auto ratio = w.ratio();
    if (!ratio || (w.partial && anyComplete)) continue;
    lowest = lowest ? std::min(*lowest, *ratio) : *ratio;
  }
  return lowest;
}

}  // namespace convolab::gui
