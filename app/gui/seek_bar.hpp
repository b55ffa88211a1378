// SPDX-License-Identifier: MIT
// SeekBar: a slider and a frame counter for video files; seeks through the capture thread.
#pragma once

#include <QTimer>
#include <QWidget>
#include <cstdint>

class QLabel;
class QSlider;

namespace convolab::gui {

class Pipeline;

class SeekBar : public QWidget {
  Q_OBJECT

 public:
  explicit SeekBar(Pipeline* pipeline, QWidget* parent = nullptr);

  /// Reads the current source's position and length (called on a timer; tests call it directly).
  void refresh();
  /// Seeks the current source to file frame `frame` (0-based).
  void seekTo(std::int64_t frame);
  QSlider* slider() const { return m_slider; }
  /// "124 / 300 · 0:04 / 0:10" (1-based frame numbers).
  QString counterText() const;
  /// Frames per second used for the time display.
  void setFps(double fps) { m_fps = fps; }

 signals:
  /// The current source has (true) or lost (false) a known length: show or hide the bar.
  void availabilityChanged(bool seekable);

 private:
  Pipeline* m_pipeline;
  QSlider* m_slider;
  QLabel* m_counter;
  QTimer m_timer;
  double m_fps = 0;
  int m_seekable = -1;  // -1 unknown: the first refresh() always announces the state
  std::int64_t m_position = -1;
  std::int64_t m_count = 0;
};

}  // namespace convolab::gui
