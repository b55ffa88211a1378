// SPDX-License-Identifier: MIT
// SaveDialogs: File ▸ Save Frame, Save Frame As…, Copy Frame and Record Video — the dialogs, messages and the
// recording indicator around frame_saver, for the newest filtered frame of the pipeline.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>

class QAction;
class QLabel;
class QWidget;

namespace convolab::gui {

class AppSettings;
class Pipeline;

class SaveDialogs : public QObject {
  Q_OBJECT

 public:
  /// `record` is the checkable Record action (unchecked again when recording cannot start); `sourceFps`
  /// gives the recording's frame rate (30 when unknown).
  SaveDialogs(QWidget* window, Pipeline* pipeline, AppSettings* settings, QAction* record,
              std::function<double()> sourceFps);

  /// Saves the newest filtered frame as a timestamped PNG in `dir` (default ~/Pictures/ConvoLab); returns
  /// its path, or an empty string (with a message) when there is nothing to save or it failed.
  QString saveNow(const QString& dir = {});
  /// Asks for a path and format (and the JPEG quality), then saves the frame shown when it was asked.
  void saveAs();
  /// Puts the filtered frame on the clipboard.
  void copy();
  /// Starts recording to ~/Videos/ConvoLab (MJPG .avi) or stops and says where it went.
  void setRecording(bool on);
  /// "● REC m:ss" beside the status bar while recording (hidden otherwise), advanced once a second.
  QLabel* recordLabel() const { return m_recordLabel; }

 signals:
  void message(const QString& text, int ms);

 private:
  void tick();

  QWidget* m_window;
  Pipeline* m_pipeline;
  AppSettings* m_settings;
  QAction* m_record;
  std::function<double()> m_sourceFps;
  QLabel* m_recordLabel;
  QElapsedTimer m_recordClock;
  QTimer m_recordTimer;
};

}  // namespace convolab::gui
