// SPDX-License-Identifier: MIT
// The seek bar reads the time of the frame on screen (the newest processed frame) and the capture thread's
// duration (cheap atomics), and sends seek requests by time to the capture thread. The slider counts
// milliseconds, so a click anywhere seeks to that share of the duration whatever the frames' spacing.
#include "preview/seek_bar.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QProxyStyle>
#include <QSlider>
#include <algorithm>
#include <cmath>

#include "processing/pipeline.hpp"

namespace convolab::gui {
namespace {

/// A click on the groove moves the handle there (and may drag on), instead of a page step towards it: a
/// click at 80 % seeks to 80 %.
class ClickToPositionStyle : public QProxyStyle {
 public:
  int styleHint(StyleHint hint, const QStyleOption* option, const QWidget* widget,
                QStyleHintReturn* returnData) const override {
    if (hint == QStyle::SH_Slider_AbsoluteSetButtons) return Qt::LeftButton;
    return QProxyStyle::styleHint(hint, option, widget, returnData);
  }
};

}  // namespace

QString playbackTimeText(double ms) {
  // Whole ms first: a decoder's 2899.9999 is 2.9 s, not 2.8.
  const auto tenths = static_cast<long long>(std::floor(std::round(std::max(0.0, ms)) / 100.0));
  const long long s = tenths / 10;
  const QString tail = QStringLiteral("%1.%2").arg(s % 60, 2, 10, QLatin1Char('0')).arg(tenths % 10);
  if (s >= 3600)
    return QStringLiteral("%1:%2:%3").arg(s / 3600).arg((s / 60) % 60, 2, 10, QLatin1Char('0')).arg(tail);
  return QStringLiteral("%1:%2").arg(s / 60).arg(tail);
}

SeekBar::SeekBar(Pipeline* pipeline, QWidget* parent) : QWidget(parent), m_pipeline(pipeline) {
  setObjectName(QStringLiteral("seekBar"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(8, 2, 8, 2);
  m_slider = new QSlider(Qt::Horizontal, this);
  m_slider->setObjectName(QStringLiteral("seekSlider"));
  m_slider->setToolTip(tr("Position in the video: click or drag to seek"));
  m_slider->setEnabled(false);
  auto* style = new ClickToPositionStyle;
  style->setParent(m_slider);
  m_slider->setStyle(style);
  m_counter = new QLabel(this);
  m_counter->setObjectName(QStringLiteral("frameCounter"));
  m_counter->setFont(QFont(QStringLiteral("DejaVu Sans Mono"), 9));
  m_counter->setToolTip(
      tr("Time of the frame shown / length of the video. Frames are shown at their own times: where a "
         "video's frames are sparse, a frame stays on screen until the next one's time."));
  layout->addWidget(m_slider, 1);
  layout->addWidget(m_counter);
  // The user moves the slider (drag, click, keys): seek; dragging seeks continuously, the newest wins.
  // When actionTriggered is emitted, sliderPosition already holds the new place.
  connect(m_slider, &QSlider::actionTriggered, this, [this] { seekToMs(m_slider->sliderPosition()); });
  // Each processed frame moves the bar at once, as it moves the status bar's time (they read the same frame);
  // the timer covers a paused or idle source and the duration.
  connect(m_pipeline, &Pipeline::frameProcessed, this, [this] { refresh(); });
  m_timer.setInterval(100);
  connect(&m_timer, &QTimer::timeout, this, &SeekBar::refresh);
  m_timer.start();
}

void SeekBar::seekToMs(double ms) {
  auto* capture = m_pipeline->captureThread();
  if (!capture || m_durationMs <= 0) return;
  ms = std::clamp(ms, 0.0, m_durationMs);
  capture->seekMs(ms);
  const auto shown = m_pipeline->latestFrame();
  m_indexAtSeek = shown ? shown->record.sourceIndex : -1;
  m_soughtMs = m_positionMs = ms;
  m_counter->setText(counterText());
}

void SeekBar::refresh() {
  const auto* capture = m_pipeline->captureThread();
  const double duration = capture ? capture->durationMs() : 0;
  const bool seekable = duration > 0;
  if (static_cast<int>(seekable) != m_seekable) {
    m_seekable = seekable;
    m_slider->setEnabled(seekable);
    emit availabilityChanged(seekable);
  }
  if (!seekable) {
    m_durationMs = 0;
    m_positionMs = m_soughtMs = -1;
    m_counter->clear();
    return;
  }
  m_durationMs = duration;
  const int maximum = static_cast<int>(std::min(std::ceil(duration), 2e9));
  if (m_slider->maximum() != maximum) {
    m_slider->setRange(0, maximum);
    m_slider->setPageStep(std::max(1000, maximum / 10));
    m_slider->setSingleStep(100);
  }
  // The frame on screen: the newest processed one when it has a time (the status bar shows the same);
  // before the first, what the capture thread delivered.
  const auto shown = m_pipeline->latestFrame();
  double position =
      shown && shown->record.sourceTimeMs >= 0 ? shown->record.sourceTimeMs : capture->positionMs();
  if (m_soughtMs >= 0) {
    if (shown && shown->record.sourceIndex != m_indexAtSeek)
      m_soughtMs = -1;  // a frame delivered since the seek is on screen
    else
      position = m_soughtMs;
  }
  if (!m_slider->isSliderDown()) {
    m_positionMs = position;
    QSignalBlocker block(m_slider);
    m_slider->setValue(static_cast<int>(std::max(0.0, m_positionMs)));
  }
  m_counter->setText(counterText());
}

QString SeekBar::counterText() const {
  if (m_durationMs <= 0) return {};
  return QStringLiteral("%1 / %2").arg(playbackTimeText(std::max(0.0, m_positionMs)),
                                       playbackTimeText(m_durationMs));
}

}  // namespace convolab::gui
