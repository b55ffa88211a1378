// SPDX-License-Identifier: MIT
// SeekBar: a slider and the position, in time, of sources with a timeline (video files); seeks through the
// capture thread.
#pragma once

#include <QTimer>
#include <QWidget>
#include <cstdint>

class QLabel;
class QSlider;

namespace convolab::gui {

class Pipeline;

/// A time in a source for people: "0:12.4", "1:02:03.4" from an hour on (tenths, rounded down, so a frame
/// never reads as later than it is). The seek bar and the status bar both write positions this way.
QString playbackTimeText(double ms);

class SeekBar : public QWidget {
  Q_OBJECT

 public:
  explicit SeekBar(Pipeline* pipeline, QWidget* parent = nullptr);

  /// Reads the current source's position and length (called on a timer; tests call it directly).
  void refresh();
  /// Seeks the current source to `ms` from its start (clamped to its duration).
  void seekToMs(double ms);
  QSlider* slider() const { return m_slider; }
  /// "0:12.4 / 0:29.6": the time of the frame on screen (after a seek, the time sought until its frame
  /// shows) and the duration.
  QString counterText() const;
  /// The current source has a timeline (a video file): the bar is shown.
  bool seekable() const { return m_seekable == 1; }
  /// The position shown, in ms (-1: none).
  double positionMs() const { return m_positionMs; }

 signals:
  /// The current source has (true) or lost (false) a timeline: show or hide the bar.
  void availabilityChanged(bool seekable);

 private:
  Pipeline* m_pipeline;
  QSlider* m_slider;
  QLabel* m_counter;
  QTimer m_timer;
  int m_seekable = -1;  // -1 unknown: the first refresh() always announces the state
  double m_positionMs = -1;
  double m_durationMs = 0;
  // After a seek the time sought is shown until a frame delivered after it is on screen (the frame shown
  // before it would move the slider back for a moment).
  double m_soughtMs = -1;
  std::int64_t m_indexAtSeek = -1;  // FrameRecord::sourceIndex on screen when seeking
};

}  // namespace convolab::gui
