// SPDX-License-Identifier: MIT
// VideoExportDialog: File ▸ Export Filtered Video…: pick a video and an output, then a progress dialog
// with Cancel while VideoExportJob filters it off the GUI thread (the live preview keeps running).
#pragma once

#include <QProgressDialog>
#include <functional>

#include "convolab/filter_chain.hpp"

class QMessageBox;

namespace convolab::gui {

class VideoExportJob;

class VideoExportDialog : public QProgressDialog {
  Q_OBJECT

 public:
  explicit VideoExportDialog(QWidget* parent = nullptr);

  /// Starts the export of `chain` (a filter converts to its one-step chain; the dialog shows itself); false
  /// if the job could not start.
  bool start(const QString& input, const QString& output, const FilterChain& chain, const QString& deviceSpec,
             const QString& strategy);
  VideoExportJob* job() const { return m_job; }

 signals:
  /// The export ended (after Cancel too); the dialog is hidden by then.
  void exportFinished(bool ok, bool cancelled, const QString& message);

 private:
  VideoExportJob* m_job;
};

class AppSettings;

/// Where the input dialog opens: the user's Videos folder (QStandardPaths::MoviesLocation) when it exists,
/// else the home folder (never a missing folder, which the dialog takes for a file name).
QString videoExportInputDir();
/// The output the save dialog suggests for `input`: "<name>_filtered.mkv" in the folder last exported to
/// (AppSettings::kLastVideoExportDir), else in ~/Videos/ConvoLab as Record does; never beside the input,
/// which is often a download or test-data folder.
QString videoExportSuggestedOutput(const AppSettings* settings, const QString& input);

/// Tells how an export ended: `report` (the status bar, one line) gets a short line that fits a 1366-pixel
/// window ("Exported clip_filtered.mkv"); the whole message (frames, size, codec, timing, path) is shown in a
/// message box, which wraps it (it was cut at 1366 in the status bar: issue 33.7). Nothing is said of a
/// cancelled export but the line. Returns the box (non-modal, deletes itself), or null.
QMessageBox* showVideoExportOutcome(QWidget* parent, bool ok, bool cancelled, const QString& message,
                                    const QString& output, const std::function<void(const QString&)>& report);

/// Asks for the input video (unless `openVideo`, the video file on screen, is given) and the output file,
/// then runs the export with `chain` (what the preview runs: switched-off steps are skipped, as live) in a
/// VideoExportDialog that deletes itself when done; the outcome is told by showVideoExportOutcome. The
/// output's folder is remembered in `settings` (may be null).
void exportFilteredVideo(QWidget* parent, const FilterChain& chain, const QString& deviceSpec,
                         const QString& strategy, const std::function<void(const QString&)>& report,
                         AppSettings* settings = nullptr, const QString& openVideo = {});

}  // namespace convolab::gui
