// SPDX-License-Identifier: MIT
// VideoExportDialog: File ▸ Export Filtered Video…: pick a video and an output, then a progress dialog
// with Cancel while VideoExportJob filters it off the GUI thread (the live preview keeps running).
#pragma once

#include <QProgressDialog>

#include "convolab/filter.hpp"

namespace convolab::gui {

class VideoExportJob;

class VideoExportDialog : public QProgressDialog {
  Q_OBJECT

 public:
  explicit VideoExportDialog(QWidget* parent = nullptr);

  /// Starts the export (the dialog shows itself); false if the job could not start.
  bool start(const QString& input, const QString& output, const FilterSet& filter, const QString& deviceSpec,
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

/// Asks for the input video (unless `openVideo`, the video file on screen, is given) and the output file,
/// then runs the export with `filter` in a VideoExportDialog that deletes itself when done; the outcome goes
/// to `report` (e.g. the status bar) and, on error, a message box. The output's folder is remembered in
/// `settings` (may be null).
void exportFilteredVideo(QWidget* parent, const FilterSet& filter, const QString& deviceSpec,
                         const QString& strategy, const std::function<void(const QString&)>& report,
                         AppSettings* settings = nullptr, const QString& openVideo = {});

}  // namespace convolab::gui
