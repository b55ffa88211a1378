// SPDX-License-Identifier: MIT
// Frame saving through the capture library's encoder (cv::imencode + writeFileAtomically).
#include "outputs/frame_saver.hpp"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "cv/image_codec.hpp"

namespace convolab::gui {

QString defaultPicturesDir() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::PicturesLocation))
      .filePath(QStringLiteral("ConvoLab"));
}

QString defaultVideosDir() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::MoviesLocation))
      .filePath(QStringLiteral("ConvoLab"));
}

QString timestampedPath(const QString& dir, const QString& stem, const QString& extension) {
  const QString base =
      stem + QLatin1Char('-') + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
  QString path = QDir(dir).filePath(base + QLatin1Char('.') + extension);
  for (int n = 2; QFileInfo::exists(path); ++n)
    path = QDir(dir).filePath(base + QStringLiteral("-%1.").arg(n) + extension);
  return path;
}

void saveFrame(const QString& path, const Image& image, bool overwrite, int jpegQuality) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  opencv::saveImage(path.toStdString(), image, overwrite, jpegQuality);
}

}  // namespace convolab::gui
