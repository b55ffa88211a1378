// SPDX-License-Identifier: MIT
// PreviewStallWatch: marks the preview when its picture is older than it should be — a frame has waited for
// the processing thread longer than kStallAfter (issue 35: a compile holding the driver froze the picture
// and nothing on screen said why). Paused sources deliver nothing that waits; a still (whose repeats wait
// while a change is processed) is told apart by its source, and never shows it either.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>
#include <chrono>
#include <functional>

namespace convolab::gui {

class PreviewWidget;

class PreviewStallWatch : public QObject {
  Q_OBJECT

 public:
  using Clock = std::chrono::steady_clock;
  /// A frame waiting this long means the picture lags the source: more than a frame or two of any source.
  static constexpr std::chrono::milliseconds kStallAfter{500};

  /// `waitingSince`: since when a frame has waited for the processing thread (the epoch: none waits);
  /// `still`: whether the source delivers one picture again and again (its picture is never late).
  PreviewStallWatch(std::function<Clock::time_point()> waitingSince, std::function<bool()> still,
                    PreviewWidget* preview);

  /// The mark for a frame waiting since `since` at `now` ("Waiting for the processing thread — 1.8 s"); empty
  /// when none waits, or not for long.
  static QString stallText(Clock::time_point since, Clock::time_point now);
  /// Looks again now (the timer does it a few times a second).
  void check();

 private:
  std::function<Clock::time_point()> m_waitingSince;
  std::function<bool()> m_still;
  PreviewWidget* m_preview;
  QTimer m_timer;
};

}  // namespace convolab::gui
