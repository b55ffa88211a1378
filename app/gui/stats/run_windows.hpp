// SPDX-License-Identifier: MIT
// RunWindows: the run cut into consecutive 5 s windows, each with the frames delivered, displayed and the
// longest display gap (--stats: "the preview shows ≥ 90 % of the source's frames in every 5 s", issue 35).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace convolab::gui {

/// One window of the run, as --stats writes it.
struct RunWindow {
  double startS = 0;            ///< since the run's start (its first processed frame), s
  double seconds = 0;           ///< its length: kWindow, less for the run's last, partial one
  std::uint64_t delivered = 0;  ///< the source's frames in it (LatestFrameSlot::delivered, as source_fps)
  std::uint64_t displayed = 0;  ///< frames the preview painted in it
  double maxDisplayGapMs = 0;   ///< the longest time between two painted frames that overlaps it, ms
  bool partial = false;         ///< the run ended inside it
  /// displayed / delivered; unset when nothing was delivered.
  std::optional<double> ratio() const;
};

/// Bounded whole-run bookkeeping: a few numbers a window (720 an hour), never a frame's time. Windows are
/// [start + k·kWindow, start + (k+1)·kWindow); the run ends at the last source sample.
class RunWindows {
 public:
  static constexpr std::chrono::seconds kWindow{5};
  using TimePoint = std::chrono::steady_clock::time_point;

  void reset();
  /// The run starts (its first processed frame). The source's count there is the newest sample taken so far
  /// (the slot counts nothing before the first processed frame), else the first one after.
  void start(TimePoint when);
  void addDisplayed(TimePoint when);
  /// The slot's delivered counter; a counter that goes back (a new source) continues the count.
  void sampleSource(TimePoint when, std::uint64_t delivered);

  /// The windows up to the last source sample; empty before the run started or without a sample after it.
  std::vector<RunWindow> windows() const;
  /// The lowest ratio over the complete windows; the partial one's only when the run is shorter than a
  /// window. Unset when no such window had a delivered frame.
  static std::optional<double> minRatio(const std::vector<RunWindow>& windows);

 private:
  struct Window {
    double startCount = 0;  // the source's cumulative count at the window's start (interpolated)
    bool haveStartCount = false;
    std::uint64_t displayed = 0;
    double maxGapMs = 0;
  };
  struct Sample {
    TimePoint when;
    double count;
  };
  Window& at(std::size_t index);
  TimePoint boundary(std::size_t index) const { return m_start + index * kWindow; }

  bool m_started = false;
  TimePoint m_start{};
  std::vector<Window> m_windows;
  std::optional<Sample> m_lastSample;
  std::uint64_t m_lastDelivered = 0, m_base = 0;
  std::optional<TimePoint> m_lastDisplayed;
};

}  // namespace convolab::gui
