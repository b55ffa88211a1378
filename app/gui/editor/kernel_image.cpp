// SPDX-License-Identifier: MIT
// Kernel from image: checks, decoding and normalisation.
#include "editor/kernel_image.hpp"

#include <QFileInfo>
#include <QImage>
#include <QImageReader>
#include <QObject>
#include <algorithm>

namespace convolab::gui {

namespace {

bool refuse(QString* error, const QString& message) {
  if (error) *error = message;
  return false;
}

/// Checks what can be checked before decoding: a readable file of a sane size, an image no larger than 63².
bool checkBeforeDecoding(const QString& path, QImageReader& reader, QString* error) {
  const QFileInfo info(path);
  const QString name = info.fileName();
  if (!info.exists() || !info.isFile())
    return refuse(error, QObject::tr("Kernel from image: %1 does not exist or is not a file").arg(path));
  if (info.size() > kMaxKernelImageBytes)
    return refuse(error, QObject::tr("Kernel from image: %1 is %2 MiB; a kernel image is at most %3×%3 "
                                     "pixels (a few KiB). Crop the point spread function first.")
                             .arg(name)
                             .arg(static_cast<double>(info.size()) / (1 << 20), 0, 'f', 1)
                             .arg(kMaxFilterSize));
  const QSize size = reader.size();  // from the header, when the format says it
  if (size.isValid() && (size.width() > kMaxFilterSize || size.height() > kMaxFilterSize))
    return refuse(error, QObject::tr("Kernel from image: %1 is %2×%3 pixels; a kernel is at most %4×%4. "
                                     "Crop or scale the point spread function to fit.")
                             .arg(name)
                             .arg(size.width())
                             .arg(size.height())
                             .arg(kMaxFilterSize));
  return true;
}

/// The grey value at (x, y) as stored: 8- and 16-bit grey read as they are (Qt's conversion between them is
/// not a plain ×257), colour as its luminance (Rec. 601 weights on the stored values, no gamma).
double greyAt(const QImage& image, int x, int y) {
  if (image.format() == QImage::Format_Grayscale8) return image.constScanLine(y)[x];
  if (image.format() == QImage::Format_Grayscale16)
    return reinterpret_cast<const quint16*>(image.constScanLine(y))[x] / 257.0;
  const QRgba64 c = reinterpret_cast<const QRgba64*>(image.constScanLine(y))[x];
  return (0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue()) / 257.0;
}

}  // namespace

std::optional<ChannelFilter> kernelFromImage(const QString& path, QString* error) {
  QImageReader reader(path);
  if (!checkBeforeDecoding(path, reader, error)) return std::nullopt;
  const QString name = QFileInfo(path).fileName();
  QImage image = reader.read();
  if (!image.isNull() && image.format() != QImage::Format_Grayscale8 &&
      image.format() != QImage::Format_Grayscale16)
    image = image.convertToFormat(QImage::Format_RGBA64);  // widening only: the stored values stay
  if (image.isNull()) {
    refuse(error, QObject::tr("Kernel from image: %1 is not an image Qt can read (%2)")
                      .arg(name, reader.errorString()));
    return std::nullopt;
  }
  if (image.width() > kMaxFilterSize || image.height() > kMaxFilterSize) {  // a format without a header size
    refuse(error, QObject::tr("Kernel from image: %1 is %2×%3 pixels; a kernel is at most %4×%4")
                      .arg(name)
                      .arg(image.width())
                      .arg(image.height())
                      .arg(kMaxFilterSize));
    return std::nullopt;
  }
  const int w = image.width(), h = image.height();
  const int k = std::max(w, h) | 1;  // the next odd size
  ChannelFilter out;
  out.size = k;
  out.matrix.assign(static_cast<size_t>(k * k), 0.0);
  const int x0 = (k - w) / 2, y0 = (k - h) / 2;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) out.matrix[static_cast<size_t>((y0 + y) * k + x0 + x)] = greyAt(image, x, y);
  double sum = 0;
  for (double v : out.matrix) sum += v;
  if (sum <= 0) {
    refuse(error, QObject::tr("Kernel from image: %1 is black everywhere: a point spread function needs "
                              "some light (white is weight)")
                      .arg(name));
    return std::nullopt;
  }
  for (double& v : out.matrix) v /= sum;
  return out;
}

}  // namespace convolab::gui
