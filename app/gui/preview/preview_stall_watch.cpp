// SPDX-License-Identifier: MIT
// The preview's stall mark (see preview_stall_watch.hpp).
#include "preview/preview_stall_watch.hpp"

#include "preview/preview_widget.hpp"

namespace convolab::gui {

PreviewStallWatch::PreviewStallWatch(std::function<Clock::time_point()> waitingSince,
                                     std::function<bool()> still, PreviewWidget* preview)
    : QObject(preview),
      m_waitingSince(std::move(waitingSince)),
      m_still(std::move(still)),
      m_preview(preview) {
  // A few times a second: the seconds count up readably, and the mark goes within a glance of frames flowing.
  m_timer.setInterval(200);
  connect(&m_timer, &QTimer::timeout, this, &PreviewStallWatch::check);
  m_timer.start();
}

QString PreviewStallWatch::stallText(Clock::time_point since, Clock::time_point now) {
  if (since == Clock::time_point{} || now - since <= kStallAfter) return {};
  const double seconds = std::chrono::duration<double>(now - since).count();
  return tr("Waiting for the processing thread — %1 s").arg(seconds, 0, 'f', 1);
}

void PreviewStallWatch::check() {
  m_preview->setStallMessage(m_still() ? QString() : stallText(m_waitingSince(), Clock::now()));
}

}  // namespace convolab::gui
