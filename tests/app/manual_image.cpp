// SPDX-License-Identifier: MIT
// convolab_manual_image: makes a screenshot small enough to be compiled into the app for the user guide
// (docs/guide/, resources/help.qrc): scaled to WIDTH pixels (default 760) and stored as an 8-bit palette PNG.
//   convolab_manual_image IN.png OUT.png [WIDTH]
// The palette holds the 256 most frequent colours at 5 bits per channel (the app's flat dark surfaces and
// text take few), and each pixel gets the nearest of them: a 1366×768 window comes to 60–120 KB.
#include <QColor>
#include <QGuiApplication>
#include <QHash>
#include <QImage>
#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

int key5(QRgb c) {
  return (qRed(c) >> 3) << 10 | (qGreen(c) >> 3) << 5 | (qBlue(c) >> 3);
}

QImage toPalette(const QImage& rgb) {
  std::vector<int> counts(1 << 15, 0);
  for (int y = 0; y < rgb.height(); ++y) {
    const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
    for (int x = 0; x < rgb.width(); ++x) ++counts[static_cast<size_t>(key5(line[x]))];
  }
  std::vector<int> keys;
  for (int k = 0; k < (1 << 15); ++k)
    if (counts[static_cast<size_t>(k)] > 0) keys.push_back(k);
  std::sort(keys.begin(), keys.end(),
            [&](int a, int b) { return counts[static_cast<size_t>(a)] > counts[static_cast<size_t>(b)]; });
  keys.resize(std::min<size_t>(keys.size(), 256));
  QList<QRgb> palette;
  for (int k : keys)
    palette.push_back(qRgb((k >> 10 & 31) << 3 | 4, (k >> 5 & 31) << 3 | 4, (k & 31) << 3 | 4));
  // The nearest palette entry of every 5-bit colour, found once.
  std::vector<uchar> nearest(1 << 15, 0);
  for (int k = 0; k < (1 << 15); ++k) {
    if (counts[static_cast<size_t>(k)] == 0) continue;
    const int r = (k >> 10 & 31) << 3, g = (k >> 5 & 31) << 3, b = (k & 31) << 3;
    int best = 0, bestD = 1 << 30;
    for (int i = 0; i < palette.size(); ++i) {
      const int dr = qRed(palette[i]) - r, dg = qGreen(palette[i]) - g, db = qBlue(palette[i]) - b;
      const int d = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
      if (d < bestD) bestD = d, best = i;
    }
    nearest[static_cast<size_t>(k)] = static_cast<uchar>(best);
  }
  QImage out(rgb.size(), QImage::Format_Indexed8);
  out.setColorTable(palette);
  for (int y = 0; y < rgb.height(); ++y) {
    const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
    uchar* dst = out.scanLine(y);
    for (int x = 0; x < rgb.width(); ++x) dst[x] = nearest[static_cast<size_t>(key5(line[x]))];
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  QGuiApplication app(argc, argv);
  if (argc < 3) {
    std::fputs("usage: convolab_manual_image IN.png OUT.png [WIDTH]\n", stderr);
    return 2;
  }
  QImage in(QString::fromLocal8Bit(argv[1]));
  if (in.isNull()) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 3;
  }
  const int width = argc > 3 ? std::atoi(argv[3]) : 760;
  if (in.width() > width) in = in.scaledToWidth(width, Qt::SmoothTransformation);
  const QImage out = toPalette(in.convertToFormat(QImage::Format_RGB32));
  if (!out.save(QString::fromLocal8Bit(argv[2]), "PNG", 0)) {
    std::fprintf(stderr, "cannot write %s\n", argv[2]);
    return 3;
  }
  std::printf("wrote %s (%dx%d)\n", argv[2], out.width(), out.height());
  return 0;
}
