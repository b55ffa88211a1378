// SPDX-License-Identifier: MIT
// PresetThumbnails: sample a detailed square once, run each preset through the CPU reference on a thread,
// keep them.
#include "editor/preset_thumbnails.hpp"

#include <QThread>
#include <cstring>
#include <utility>
#include <vector>

#include "convolab/reference.hpp"
#include "lab/background_task.hpp"

namespace convolab::gui {

PresetThumbnails::PresetThumbnails(QObject* parent) : QObject(parent) {}

PresetThumbnails::~PresetThumbnails() {
  if (m_thread) m_thread->wait();
}

namespace {

Image fromQImage(const QImage& rgb888) {
  Image out(std::max(rgb888.width(), 1), std::max(rgb888.height(), 1));
  for (int y = 0; y < rgb888.height(); ++y)
    std::memcpy(out.pixels.data() + static_cast<std::size_t>(y) * out.stride, rgb888.constScanLine(y),
                static_cast<std::size_t>(rgb888.width()) * kBytesPerPixel);
  return out;
}

/// The top-left corner of the `side`×`side` square of `frame` with the most detail (the largest sum of
/// |horizontal| + |vertical| differences of green), on a grid of `side` / 6; a summed-area table makes each
/// candidate O(1).
QPoint mostDetailedSquare(const Image& frame, int side) {
  const int w = frame.width, h = frame.height;
  std::vector<double> sat(static_cast<std::size_t>((w + 1) * (h + 1)), 0.0);
  const auto at = [&](int x, int y) -> double& { return sat[static_cast<std::size_t>(y * (w + 1) + x)]; };
  const auto green = [&](int x, int y) {
    return static_cast<int>(frame.view().row(y)[x * kBytesPerPixel + 1]);
  };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int d = (x + 1 < w ? std::abs(green(x + 1, y) - green(x, y)) : 0) +
                    (y + 1 < h ? std::abs(green(x, y + 1) - green(x, y)) : 0);
      at(x + 1, y + 1) = d + at(x, y + 1) + at(x + 1, y) - at(x, y);
    }
  const int step = std::max(1, side / 6);
  QPoint best(0, 0);
  double most = -1;
  for (int y = 0; y + side <= h; y += step)
    for (int x = 0; x + side <= w; x += step) {
      const double detail = at(x + side, y + side) - at(x, y + side) - at(x + side, y) + at(x, y);
      if (detail > most) most = detail, best = QPoint(x, y);
    }
  return best;
}

}  // namespace

Image PresetThumbnails::sample(const Image& frame, QSize size) {
  const QImage in(frame.pixels.data(), frame.width, frame.height, static_cast<qsizetype>(frame.stride),
                  QImage::Format_RGB888);
  const QSize whole = size + QSize(2 * kMargin, 2 * kMargin);
  if (frame.width >= whole.width() && frame.height >= whole.height()) {
    // A detailed square at the frame's own scale: a 7×7 blur blurs it as it blurs the frame (a shrunken whole
    // frame is so smooth that every blur, Sharpen and Unsharp looked the same).
    const QPoint corner = mostDetailedSquare(frame, whole.width());
    return fromQImage(in.copy(QRect(corner, whole)).convertToFormat(QImage::Format_RGB888));
  }
  const QImage scaled = in.scaled(whole, Qt::KeepAspectRatioByExpanding, Qt::SmoothTransformation);
  return fromQImage(
      scaled
          .copy(QRect(QPoint((scaled.width() - whole.width()) / 2, (scaled.height() - whole.height()) / 2),
                      whole.boundedTo(scaled.size())))
          .convertToFormat(QImage::Format_RGB888));
}

QImage PresetThumbnails::render(const Image& sample, const FilterSet& filter) {
  Image out(sample.width, sample.height);
  referenceConvolve(sample.view(), out.mutableView(), filter);
  // The margin held the neighbours the filter reads; the thumbnail is the centre.
  return QImage(out.pixels.data(), out.width, out.height, static_cast<qsizetype>(out.stride),
                QImage::Format_RGB888)
      .copy(QRect(kMargin, kMargin, std::max(1, out.width - 2 * kMargin),
                  std::max(1, out.height - 2 * kMargin)));
}

bool PresetThumbnails::request(const QList<PresetEntry>& entries) {
  if (!m_provider || m_busy) return false;
  const Frame frame = m_provider();
  if (!frame.image || frame.image->width <= 0 || frame.image->height <= 0) return false;
  const bool fresh = frame.sourceKey == m_key && std::chrono::steady_clock::now() - m_madeAt < kMaxAge;
  bool covered = fresh;
  for (const PresetEntry& e : entries) covered = covered && m_images.contains(e.path);
  if (covered) return true;

  // Load the presets here (the user's folder is read on the GUI thread today too); filter on the thread.
  std::vector<std::pair<QString, FilterSet>> jobs;
  PresetLibrary loader;
  for (const PresetEntry& e : entries) {
    try {
      jobs.emplace_back(e.path, loader.load(e));
    } catch (const std::exception&) {
      // No thumbnail for a preset that does not load; the menu says why when it is picked.
    }
  }
  m_busy = true;
  const std::shared_ptr<const Image> image = frame.image;
  const QString key = frame.sourceKey;
  using Result = QHash<QString, QImage>;
  m_thread = lab::runInBackground<Result>(
      this,
      [image, jobs = std::move(jobs)] {
        Result out;
        const Image small = sample(*image, kSize);
        for (const auto& [path, filter] : jobs) out.insert(path, render(small, filter));
        return out;
      },
      [this, key](Result images) {
        m_busy = false;
        if (key != m_key) m_images.clear();
        m_key = key;
        m_madeAt = std::chrono::steady_clock::now();
        for (auto it = images.cbegin(); it != images.cend(); ++it) m_images.insert(it.key(), it.value());
        ++m_generation;
        emit ready();
      });
  return true;
}

}  // namespace convolab::gui
