// SPDX-License-Identifier: MIT
// Step thumbnails: one sample of the frame, the steps applied one after another on it (referenceChain).
#include "step_thumbnails.hpp"

#include <QThread>
#include <algorithm>

#include "convolab/reference.hpp"
#include "lab/background_task.hpp"

namespace convolab::gui {

StepThumbnails::StepThumbnails(QObject* parent) : QObject(parent) {}

StepThumbnails::~StepThumbnails() {
  if (m_thread) m_thread->wait();
}

QImage StepThumbnails::thumbnail(int index) const {
  return index >= 0 && index < count() ? m_images[static_cast<std::size_t>(index)] : QImage();
}

std::vector<QImage> StepThumbnails::render(const Image& frame, const std::vector<ChainStep>& steps) {
  // The margin holds what the whole chain reads around the thumbnail: its edge is the frame's, not a border's
  int reach = 0;
  for (const ChainStep& step : steps) reach += step.radius();
  const int margin = std::max(reach, PresetThumbnails::kMargin);
  const QSize inner = PresetThumbnails::kSize + QSize(2, 2) * (margin - PresetThumbnails::kMargin);
  Image image = PresetThumbnails::sample(frame, inner);
  std::vector<QImage> out;
  bool computable = true;
  for (const ChainStep& step : steps) {
    computable = computable && !step.isCustom();
    if (!computable) {
      out.emplace_back();
      continue;
    }
    if (step.enabled) {
      Image next(image.width, image.height);
      referenceChain(image.view(), next.mutableView(), FilterChain::make({step}));
      image = std::move(next);
    }
    const int w = std::max(1, image.width - 2 * margin), h = std::max(1, image.height - 2 * margin);
    out.push_back(
        QImage(image.pixels.data(), image.width, image.height, static_cast<qsizetype>(image.stride),
               QImage::Format_RGB888)
            .copy(QRect(std::min(margin, image.width - 1), std::min(margin, image.height - 1), w, h)));
  }
  return out;
}

bool StepThumbnails::request(const std::vector<ChainStep>& steps) {
  if (!m_provider) return false;
  if (m_busy) {
    m_pending = steps;
    return true;
  }
  const PresetThumbnails::Frame frame = m_provider();
  if (!frame.image || frame.image->width <= 0 || frame.image->height <= 0) return false;
  m_busy = true;
  const std::shared_ptr<const Image> image = frame.image;
  using Result = std::vector<QImage>;
  m_thread = lab::runInBackground<Result>(
      this, [image, steps] { return render(*image, steps); },
      [this](Result images) {
        m_busy = false;
        m_images = std::move(images);
        emit ready();
        if (m_pending) {
          const std::vector<ChainStep> next = std::move(*m_pending);
          m_pending.reset();
          request(next);
        }
      });
  return true;
}

}  // namespace convolab::gui
