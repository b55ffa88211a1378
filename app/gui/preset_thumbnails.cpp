// SPDX-License-Identifier: MIT
// PresetThumbnails: downscale once, run each preset through the CPU reference on a thread, keep the results.
#include "preset_thumbnails.hpp"

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

Image PresetThumbnails::downscale(const Image& frame, QSize size) {
  const QImage in(frame.pixels.data(), frame.width, frame.height, static_cast<qsizetype>(frame.stride),
                  QImage::Format_RGB888);
  const QImage scaled = in.scaled(size, Qt::KeepAspectRatioByExpanding, Qt::SmoothTransformation);
  const QImage small =
      scaled
          .copy(QRect(QPoint((scaled.width() - size.width()) / 2, (scaled.height() - size.height()) / 2),
                      size.boundedTo(scaled.size())))
          .convertToFormat(QImage::Format_RGB888);
  Image out(std::max(small.width(), 1), std::max(small.height(), 1));
  for (int y = 0; y < small.height(); ++y)
    std::memcpy(out.pixels.data() + static_cast<std::size_t>(y) * out.stride, small.constScanLine(y),
                static_cast<std::size_t>(small.width()) * kBytesPerPixel);
  return out;
}

QImage PresetThumbnails::render(const Image& small, const FilterSet& filter) {
  Image out(small.width, small.height);
  referenceConvolve(small.view(), out.mutableView(), filter);
  return QImage(out.pixels.data(), out.width, out.height, static_cast<qsizetype>(out.stride),
                QImage::Format_RGB888)
      .copy();
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
        const Image small = downscale(*image, kSize);
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
