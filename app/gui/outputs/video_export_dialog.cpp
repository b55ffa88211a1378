// SPDX-License-Identifier: MIT
// VideoExportDialog: file choice, a QProgressDialog wired to VideoExportJob, and the outcome message.
#include "outputs/video_export_dialog.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStandardPaths>
#include <functional>

#include "app_settings.hpp"
#include "outputs/frame_saver.hpp"
#include "outputs/video_export_job.hpp"

namespace convolab::gui {

VideoExportDialog::VideoExportDialog(QWidget* parent)
    : QProgressDialog(parent), m_job(new VideoExportJob(this)) {
  setWindowTitle(tr("Export Filtered Video"));
  setLabelText(tr("Preparing…"));
  setCancelButtonText(tr("Cancel"));
  setMinimumDuration(0);
  setAutoClose(false);
  setAutoReset(false);
  setWindowModality(Qt::WindowModal);
  setRange(0, 0);
  // Wide enough for its title as window managers show it ("… — ConvoLab"): it was cut to "Export…voLab".
  setMinimumWidth(fontMetrics().horizontalAdvance(windowTitle() + QStringLiteral(" — ConvoLab")) + 160);
  connect(this, &QProgressDialog::canceled, this, [this] {
    setLabelText(tr("Cancelling…"));
    m_job->cancel();
  });
  connect(m_job, &VideoExportJob::progress, this, [this](qint64 done, qint64 total) {
    if (total > 0) {
      setRange(0, static_cast<int>(total));
      setValue(static_cast<int>(std::min(done, total)));
      setLabelText(tr("Filtering frame %1 of %2…").arg(done).arg(total));
    } else {
      setLabelText(tr("Filtering frame %1…").arg(done));
    }
  });
  connect(m_job, &VideoExportJob::finished, this, [this](bool ok, bool cancelled, const QString& message) {
    hide();
    emit exportFinished(ok, cancelled, message);
  });
}

bool VideoExportDialog::start(const QString& input, const QString& output, const FilterChain& chain,
                              const QString& deviceSpec, const QString& strategy) {
  setLabelText(tr("Filtering %1…").arg(QFileInfo(input).fileName()));
  if (!m_job->start(input, output, chain, deviceSpec, strategy)) return false;
  show();
  return true;
}

QString videoExportInputDir() {
  // A folder that exists: given a missing ~/Videos, the file dialog opened in ~ with "Videos" typed as the
  // file name (issue 33.7).
  const QString videos = QStandardPaths::writableLocation(QStandardPaths::MoviesLocation);
  return !videos.isEmpty() && QFileInfo(videos).isDir() ? videos : QDir::homePath();
}

QString videoExportSuggestedOutput(const AppSettings* settings, const QString& input) {
  const QString remembered =
      settings ? settings->value(AppSettings::kLastVideoExportDir).toString() : QString();
  const QString dir = remembered.isEmpty() ? defaultVideosDir() : remembered;
  return QDir(dir).filePath(QFileInfo(input).completeBaseName() + QStringLiteral("_filtered.mkv"));
}

QMessageBox* showVideoExportOutcome(QWidget* parent, bool ok, bool cancelled, const QString& message,
                                    const QString& output,
                                    const std::function<void(const QString&)>& report) {
  const QString name = QFileInfo(output).fileName();
  if (report)
    report(cancelled ? message
           : ok      ? QObject::tr("Exported %1").arg(name)
                     : QObject::tr("Export of %1 failed").arg(name));
  if (cancelled) return nullptr;
  auto* box = new QMessageBox(ok ? QMessageBox::Information : QMessageBox::Warning,
                              QObject::tr("Export Filtered Video"), message, QMessageBox::Ok, parent);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->setTextInteractionFlags(Qt::TextSelectableByMouse);  // the path can be copied
  box->open();
  return box;
}

void exportFilteredVideo(QWidget* parent, const FilterChain& chain, const QString& deviceSpec,
                         const QString& strategy, const std::function<void(const QString&)>& report,
                         AppSettings* settings, const QString& openVideo) {
  // The video on screen is the one to export: asked for only when none is open (issue 33.7).
  const QString input =
      !openVideo.isEmpty()
          ? openVideo
          : QFileDialog::getOpenFileName(
                parent, QObject::tr("Export Filtered Video: Choose a Video"), videoExportInputDir(),
                QObject::tr("Videos (*.mp4 *.mkv *.avi *.mov *.webm *.m4v *.mpg *.mpeg "
                            "*.wmv *.gif);;All files (*)"));
  if (input.isEmpty()) return;
  const QString suggested = videoExportSuggestedOutput(settings, input);
  QDir().mkpath(QFileInfo(suggested).absolutePath());  // ~/Videos/ConvoLab, as Record makes it
  const QString output = QFileDialog::getSaveFileName(
      parent, QObject::tr("Export Filtered Video: Save As"), suggested,
      QObject::tr("Matroska, FFV1 lossless (*.mkv);;AVI, Motion JPEG (*.avi);;MP4, MPEG-4 part 2 (*.mp4)"));
  if (output.isEmpty()) return;
  if (settings) settings->set(AppSettings::kLastVideoExportDir, QFileInfo(output).absolutePath());
  auto* dialog = new VideoExportDialog(parent);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  QObject::connect(dialog, &VideoExportDialog::exportFinished, dialog,
                   [dialog, parent, report, output](bool ok, bool cancelled, const QString& message) {
                     showVideoExportOutcome(parent, ok, cancelled, message, output, report);
                     dialog->close();
                   });
  if (!dialog->start(input, output, chain, deviceSpec, strategy)) dialog->close();
}

}  // namespace convolab::gui
