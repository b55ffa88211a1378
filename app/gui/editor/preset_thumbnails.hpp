// SPDX-License-Identifier: MIT
// PresetThumbnails: a small picture per preset for the Presets menu — the preset applied to the most detailed
// square of the current frame (as webcamoid shows its effects), computed with the CPU reference off the GUI
// thread and cached per frame source.
#pragma once

#include <QHash>
#include <QImage>
#include <QObject>
#include <QPointer>
#include <QSize>
#include <QString>
#include <chrono>
#include <functional>
#include <memory>

#include "convolab/filter.hpp"
#include "convolab/image.hpp"
#include "editor/preset_library.hpp"

class QThread;

namespace convolab::gui {

class PresetThumbnails : public QObject {
  Q_OBJECT

 public:
  /// What the thumbnails are made from: the newest frame and a key naming its source (the source spec).
  struct Frame {
    std::shared_ptr<const Image> image;
    QString sourceKey;
  };
  using FrameProvider = std::function<Frame()>;

  /// Thumbnails are this big: a detailed square of the frame, as the menu's icons are (one column of presets
  /// fits 1080 lines, two 768).
  static constexpr QSize kSize{36, 36};
  /// A live source's thumbnails are made again when older than this as the menu opens.
  static constexpr std::chrono::seconds kMaxAge{10};

  explicit PresetThumbnails(QObject* parent = nullptr);
  ~PresetThumbnails() override;

  void setFrameProvider(FrameProvider provider) { m_provider = std::move(provider); }

  /// Asks for thumbnails of `entries` from the provider's frame: nothing happens while those of the same
  /// source, younger than kMaxAge, cover every entry; otherwise they are made on a thread and `ready()`
  /// follows. False when there is no provider or no frame yet.
  bool request(const QList<PresetEntry>& entries);
  /// The thumbnail of the preset at `path` (null QImage: none yet).
  QImage thumbnail(const QString& path) const { return m_images.value(path); }
  bool busy() const { return m_busy; }
  /// How many times thumbnails were made (tests: the cache).
  int generation() const { return m_generation; }

  /// Pixels around the thumbnail that the largest filter (15×15) reads.
  static constexpr int kMargin = 7;
  /// What thumbnails are made from: the square of `frame` with the most detail, at the frame's scale, `size`
  /// plus kMargin on each side (issue 33.9); a frame smaller than that is shrunk to cover it instead.
  static Image sample(const Image& frame, QSize size);
  /// `filter` applied to `sample` (CPU reference), its centre `size` as a QImage.
  static QImage render(const Image& sample, const FilterSet& filter);

 signals:
  /// New thumbnails are in.
  void ready();

 private:
  FrameProvider m_provider;
  QHash<QString, QImage> m_images;
  QString m_key;
  std::chrono::steady_clock::time_point m_madeAt;
  bool m_busy = false;
  int m_generation = 0;
  QPointer<QThread> m_thread;
};

}  // namespace convolab::gui
