// SPDX-License-Identifier: MIT
// PhotoTimer: Save Frame after a countdown (3, 5 or 10 s) drawn large over the preview and cancelled with
// Esc, then one frame or a burst of N frames at an interval, each a new numbered PNG in the usual folder (an
// existing file is never overwritten). --snapshot does not come here.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <functional>

#include "processing/processed_frame.hpp"

class QLabel;
class QMenu;
class QWidget;

namespace convolab::gui {

class PhotoTimer : public QObject {
  Q_OBJECT

 public:
  /// The newest frame that may leave, as it leaves (Pipeline::frameThatMayLeave: flipped while Flip Output is
  /// on); null when there is none yet (then it waits).
  using FrameProvider = std::function<ProcessedFramePtr()>;

  /// The countdown is drawn over `preview`; files go to `dir` (empty: ~/Pictures/ConvoLab).
  PhotoTimer(QWidget* preview, FrameProvider latestFrame, QObject* parent = nullptr);
  ~PhotoTimer() override;

  /// Counts down `seconds` (0: none), then saves `count` frames `intervalMs` apart, each a frame not saved
  /// before. A countdown already running is restarted.
  void start(int seconds, int count = 1, int intervalMs = 500);
  /// Stops the countdown or the burst (Esc does this); files already written stay.
  void cancel();
  bool active() const { return m_phase != Phase::Idle; }
  void setDirectory(const QString& dir) { m_dir = dir; }

  /// Settings of the File ▸ Photo Timer menu, used by startFromMenu().
  int delaySeconds() const { return m_delay; }
  int burstCount() const { return m_burst; }
  /// Starts with the menu's delay and burst.
  void startFromMenu() { start(m_delay, m_burst, kBurstIntervalMs); }
  /// Fills File ▸ Photo Timer: the delay (3, 5, 10 s) and the burst (1, 3, 5, 10 frames).
  void fillMenu(QMenu* menu);
  /// The countdown label (for tests and screenshots); hidden when no countdown runs.
  QLabel* overlay() const { return m_overlay; }

  static constexpr int kBurstIntervalMs = 500;

 signals:
  void saved(const QString& path);
  /// The countdown and burst are over (`paths` may be fewer than asked when a save failed or was cancelled).
  void finished(const QStringList& paths);
  void cancelled();
  void message(const QString& text, int ms);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  enum class Phase { Idle, Counting, Burst };
  void tick();
  void saveNext();
  void finish();
  QString nextPath();

  FrameProvider m_latestFrame;
  QLabel* m_overlay;
  QTimer m_timer;
  QElapsedTimer m_clock;
  Phase m_phase = Phase::Idle;
  QString m_dir;
  QString m_stem;  // "convolab-YYYYMMDD-HHMMSS" of this shot; files are "<stem>-1.png", "<stem>-2.png", …
  int m_seconds = 0;
  int m_count = 1;
  int m_intervalMs = 500;
  int m_number = 0;
  ProcessedFramePtr m_lastSaved;  // a burst saves each frame once
  qint64 m_nextSaveMs = 0;
  QStringList m_paths;
  int m_delay = 3;
  int m_burst = 1;
};

}  // namespace convolab::gui
