// SPDX-License-Identifier: MIT
// StepThumbnails: a small live picture per chain step — the chain's output after that step, on the most
// detailed square of the current frame (PresetThumbnails::sample), computed with the CPU reference off the
// GUI thread (lab::runInBackground), as the Presets menu's thumbnails are.
#pragma once

#include <QImage>
#include <QObject>
#include <QPointer>
#include <vector>

#include "convolab/filter_chain.hpp"
#include "editor/preset_thumbnails.hpp"

class QThread;

namespace convolab::gui {

class StepThumbnails : public QObject {
  Q_OBJECT

 public:
  explicit StepThumbnails(QObject* parent = nullptr);
  ~StepThumbnails() override;

  void setFrameProvider(PresetThumbnails::FrameProvider provider) { m_provider = std::move(provider); }

  /// Makes the thumbnails of `steps` from the provider's newest frame, then ready(). One run at a time: asked
  /// again meanwhile, it runs once more with the newest steps when this one ends. False without a frame.
  bool request(const std::vector<ChainStep>& steps);
  /// Step `index`'s thumbnail: the output after it (a switched-off step passes its input on); null when none
  /// (a custom OpenCL step and those after it: it has no CPU reference).
  QImage thumbnail(int index) const;
  int count() const { return static_cast<int>(m_images.size()); }
  bool busy() const { return m_busy; }

  /// What request() computes, on the calling thread: the output after each step of `steps` on `frame`.
  static std::vector<QImage> render(const Image& frame, const std::vector<ChainStep>& steps);

 signals:
  void ready();

 private:
  PresetThumbnails::FrameProvider m_provider;
  std::vector<QImage> m_images;
  std::optional<std::vector<ChainStep>> m_pending;
  bool m_busy = false;
  QPointer<QThread> m_thread;
};

}  // namespace convolab::gui
