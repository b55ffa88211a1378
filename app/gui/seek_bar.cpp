// SPDX-License-Identifier: MIT
// The seek bar polls the capture thread's file position (cheap atomics) and sends seek requests to it.
#include "seek_bar.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <cmath>

#include "pipeline.hpp"

namespace convolab::gui {
namespace {

QString clock(double seconds) {
  const auto s = static_cast<long long>(std::floor(std::max(0.0, seconds)));
  return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace

SeekBar::SeekBar(Pipeline* pipeline, QWidget* parent) : QWidget(parent), m_pipeline(pipeline) {
  setObjectName(QStringLiteral("seekBar"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(8, 2, 8, 2);
  m_slider = new QSlider(Qt::Horizontal, this);
  m_slider->setObjectName(QStringLiteral("seekSlider"));
  m_slider->setToolTip(tr("Position in the video: drag or click to seek"));
  m_slider->setEnabled(false);
  m_counter = new QLabel(this);
  m_counter->setObjectName(QStringLiteral("frameCounter"));
  m_counter->setFont(QFont(QStringLiteral("DejaVu Sans Mono"), 9));
  m_counter->setToolTip(tr("Frame shown / frames in the file · time / length"));
  layout->addWidget(m_slider, 1);
  layout->addWidget(m_counter);
  // The user moves the slider (drag, click, keys): seek; dragging seeks continuously, the newest wins.
  // When actionTriggered is emitted, sliderPosition already holds the new place.
  connect(m_slider, &QSlider::actionTriggered, this, [this] { seekTo(m_slider->sliderPosition()); });
  m_timer.setInterval(100);
  connect(&m_timer, &QTimer::timeout, this, &SeekBar::refresh);
  m_timer.start();
}

void SeekBar::seekTo(std::int64_t frame) {
  if (auto* capture = m_pipeline->captureThread(); capture && m_count > 0) {
    capture->seek(frame);
    m_position = std::clamp<std::int64_t>(frame, 0, m_count - 1);
    m_counter->setText(counterText());
  }
}

void SeekBar::refresh() {
  const auto* capture = m_pipeline->captureThread();
  const std::int64_t count = capture ? capture->frameCount() : 0;
  const bool seekable = count > 0;
  if (static_cast<int>(seekable) != m_seekable) {
    m_seekable = seekable;
    m_slider->setEnabled(seekable);
    emit availabilityChanged(seekable);
  }
  if (!seekable) {
    m_count = 0;
    m_position = -1;
    m_counter->clear();
    return;
  }
  m_count = count;
  if (m_slider->maximum() != count - 1) m_slider->setRange(0, static_cast<int>(count - 1));
  if (!m_slider->isSliderDown()) {
    m_position = capture->position();
    QSignalBlocker block(m_slider);
    m_slider->setValue(static_cast<int>(std::max<std::int64_t>(0, m_position)));
  }
  m_counter->setText(counterText());
}

QString SeekBar::counterText() const {
  if (m_count <= 0) return {};
  const std::int64_t shown = std::max<std::int64_t>(0, m_position) + 1;
  QString text = QStringLiteral("%1 / %2").arg(shown).arg(m_count);
  if (m_fps > 0) text += QStringLiteral(" · %1 / %2").arg(clock((shown - 1) / m_fps), clock(m_count / m_fps));
  return text;
}

}  // namespace convolab::gui
