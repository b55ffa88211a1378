// SPDX-License-Identifier: MIT
// Save / Save As / Copy / Record of the filtered frame: dialogs and messages around frame_saver.
#include "outputs/save_dialogs.hpp"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>

#include "app_settings.hpp"
#include "cv/image_codec.hpp"
#include "outputs/frame_saver.hpp"
#include "processing/pipeline.hpp"
#include "window/input_dialogs.hpp"
#include "window/theme.hpp"

namespace convolab::gui {

namespace {

QImage copyToQImage(const Image& image) {
  return QImage(image.pixels.data(), image.width, image.height, static_cast<qsizetype>(image.stride),
                QImage::Format_RGB888)
      .copy();
}

}  // namespace

SaveDialogs::SaveDialogs(QWidget* window, Pipeline* pipeline, AppSettings* settings, QAction* record,
                         std::function<double()> sourceFps)
    : QObject(window),
      m_window(window),
      m_pipeline(pipeline),
      m_settings(settings),
      m_record(record),
      m_sourceFps(std::move(sourceFps)),
      m_recordLabel(new QLabel(window)) {
  m_recordLabel->setStyleSheet(theme::textStyle(theme::danger()) + QStringLiteral(" font-weight:600;"));
  m_recordLabel->hide();
  m_recordTimer.setInterval(1000);
  connect(&m_recordTimer, &QTimer::timeout, this, &SaveDialogs::tick);
}

QString SaveDialogs::saveNow(const QString& dir) {
  QString why;
  const auto frame = m_pipeline->frameThatMayLeave(&why);  // only a frame made with the filter set
  if (!frame) {
    emit message(tr("Nothing to save yet: %1").arg(why), 6000);
    return {};
  }
  const QString folder = dir.isEmpty() ? defaultPicturesDir() : dir;
  const QString path = timestampedPath(folder, QStringLiteral("convolab"), QStringLiteral("png"));
  try {
    saveFrame(path, *frame->filtered, false);
    emit message(tr("Saved %1×%2 frame to %3")
                     .arg(frame->filtered->width)
                     .arg(frame->filtered->height)
                     .arg(QDir::toNativeSeparators(path)),
                 8000);
    return path;
  } catch (const std::exception& e) {
    emit message(tr("Could not save the frame: %1").arg(e.what()), 10000);
    return {};
  }
}

void SaveDialogs::saveAs() {
  QString why;
  // What is on screen now, even if the dialog stays open a while; only a frame made with the filter set.
  const auto frame = m_pipeline->frameThatMayLeave(&why);
  if (!frame) {
    emit message(tr("Nothing to save yet: %1").arg(why), 6000);
    return;
  }
  const QString dir = m_settings->value(AppSettings::kLastSaveDir, defaultPicturesDir()).toString();
  QDir().mkpath(dir);
  QString selected;
  QString path = QFileDialog::getSaveFileName(
      m_window, tr("Save frame as"), timestampedPath(dir, QStringLiteral("convolab"), QStringLiteral("png")),
      tr("PNG image (*.png);;JPEG image (*.jpg *.jpeg);;TIFF image (*.tif *.tiff);;BMP image (*.bmp)"),
      &selected);
  if (path.isEmpty()) return;
  // The dialog asked about replacing the name it returned; a name we complete is checked here.
  if (QFileInfo(path).suffix().isEmpty()) {
    path += selected.startsWith(QLatin1String("JPEG"))   ? QStringLiteral(".jpg")
            : selected.startsWith(QLatin1String("TIFF")) ? QStringLiteral(".tiff")
            : selected.startsWith(QLatin1String("BMP"))  ? QStringLiteral(".bmp")
                                                         : QStringLiteral(".png");
    if (QFileInfo::exists(path) &&
        QMessageBox::question(m_window, tr("Replace file?"),
                              tr("%1 already exists. Replace it?").arg(path)) != QMessageBox::Yes)
      return;
  }
  int quality = m_settings->value(AppSettings::kJpegQuality, 92).toInt();
  if (opencv::imageFormatForPath(path.toStdString()) == opencv::ImageFormat::Jpeg) {
    bool ok = false;
    quality = askInt(m_window, tr("JPEG quality"), tr("Quality (0–100):"), quality, 0, 100, 1, &ok);
    if (!ok) return;
    m_settings->set(AppSettings::kJpegQuality, quality);
  }
  m_settings->set(AppSettings::kLastSaveDir, QFileInfo(path).absolutePath());
  try {
    saveFrame(path, *frame->filtered, true, quality);
    emit message(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 8000);
  } catch (const std::exception& e) {
    QMessageBox::warning(m_window, tr("Could not save the frame"), QString::fromUtf8(e.what()));
  }
}

void SaveDialogs::copy() {
  QString why;
  const auto frame = m_pipeline->frameThatMayLeave(&why);
  if (!frame) {
    emit message(tr("Nothing to copy yet: %1").arg(why), 6000);
    return;
  }
  QApplication::clipboard()->setImage(copyToQImage(*frame->filtered));
  emit message(tr("Filtered frame copied to the clipboard"), 3000);
}

void SaveDialogs::setRecording(bool on) {
  if (!on) {
    if (!m_pipeline->isRecording()) return;
    const QString path = QString::fromStdString(m_pipeline->recorder()->path().string());
    const auto written = m_pipeline->recorder()->written();
    m_pipeline->stopRecording();
    m_recordTimer.stop();
    m_recordLabel->hide();
    emit message(tr("Saved video (%1 frames) to %2").arg(written).arg(QDir::toNativeSeparators(path)), 10000);
    return;
  }
  const auto frame = m_pipeline->latestFrame();
  if (!frame) {
    emit message(tr("Nothing to record yet: no frame has been processed"), 6000);
    QSignalBlocker block(m_record);
    m_record->setChecked(false);
    return;
  }
  const QString dir = defaultVideosDir();
  QDir().mkpath(dir);
  const QString path = timestampedPath(dir, QStringLiteral("convolab"), QStringLiteral("avi"));
  try {
    const double fps = m_sourceFps();
    m_pipeline->startRecording(path.toStdString(), frame->filtered->width, frame->filtered->height,
                               fps > 0 ? fps : 30.0);
    m_recordClock.start();
    m_recordTimer.start();
    m_recordLabel->setText(tr("● REC 0:00"));
    m_recordLabel->show();
    emit message(tr("Recording to %1").arg(QDir::toNativeSeparators(path)), 5000);
  } catch (const std::exception& e) {
    QSignalBlocker block(m_record);
    m_record->setChecked(false);
    emit message(tr("Cannot record: %1").arg(e.what()), 10000);
  }
}

void SaveDialogs::tick() {
  if (!m_pipeline->isRecording()) return;
  const qint64 s = m_recordClock.elapsed() / 1000;
  m_recordLabel->setText(tr("● REC %1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0')));
}

}  // namespace convolab::gui
