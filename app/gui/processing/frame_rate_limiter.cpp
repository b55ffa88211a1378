// SPDX-License-Identifier: MIT
// Processing ▸ Limit Frame Rate: a camera mode at the limit where there is one, else dropping before upload.
#include "processing/frame_rate_limiter.hpp"

#include <QActionGroup>
#include <QMenu>
#include <cmath>

#include "app_settings.hpp"
#include "processing/frame_rate_cap.hpp"
#include "sources/source_controller.hpp"
#include "stats/stats_collector.hpp"

namespace convolab::gui {

FrameRateLimiter::FrameRateLimiter(Parts parts, int launchLimit, QObject* parent)
    : QObject(parent), m_parts(std::move(parts)) {
  m_reportTimer.setInterval(500);
  connect(&m_reportTimer, &QTimer::timeout, this, &FrameRateLimiter::report);
  const int remembered = m_parts.settings->value(QLatin1String(kSettingsKey), 0).toInt();
  setLimit(launchLimit > 0 ? launchLimit : std::clamp(remembered, 0, 1000), false);
}

void FrameRateLimiter::setLimit(int fps, bool remember) {
  m_limit = std::max(0, fps);
  m_parts.cap->setLimit(m_limit);
  if (remember) m_parts.settings->set(QLatin1String(kSettingsKey), m_limit);
  chooseCameraMode();
  if (m_limit > 0)
    m_reportTimer.start();
  else
    m_reportTimer.stop();
  report();
}

void FrameRateLimiter::sourceChanged() {
  if (m_limit > 0) chooseCameraMode();
  report();
}

void FrameRateLimiter::chooseCameraMode() {
  SourceController* sources = m_parts.sources;
  m_cameraMode = false;
  const auto& listModes = sources->traits().listModes;
  if (!listModes || sources->loading()) return;
  const std::string delivered = sources->status().mode;
  std::optional<capture::CameraMode> current;
  const std::vector<capture::CameraMode> modes = listModes();
  for (const capture::CameraMode& m : modes)
    if (m.label() == delivered) current = m;
  if (!current) return;  // not delivering yet: asked again when it does
  if (m_limit == 0) {
    if (m_modeBefore && !(*m_modeBefore == *current)) sources->open(sources->spec(), *m_modeBefore);
    m_modeBefore.reset();
    return;
  }
  if (std::abs(current->fps - m_limit) < 0.5) {
    m_cameraMode = true;
    return;
  }
  for (const capture::CameraMode& m : modes) {
    if (m.fourcc == current->fourcc && m.width == current->width && m.height == current->height &&
        std::abs(m.fps - m_limit) < 0.5) {
      if (!m_modeBefore) m_modeBefore = current;
      m_cameraMode = true;
      sources->open(sources->spec(), m);  // the capture thread reopens it in the slower mode
      return;
    }
  }
}

void FrameRateLimiter::report() {
  if (m_limit <= 0) {
    m_parts.stats->setFrameRateCap(std::nullopt);
    return;
  }
  m_parts.stats->setFrameRateCap(FrameRateCapFigures{static_cast<double>(m_limit),
                                                     m_cameraMode ? "camera mode" : "drop before upload",
                                                     m_parts.cap->dropped()});
}

void FrameRateLimiter::fillMenu(QMenu* menu) {
  auto* group = new QActionGroup(menu);
  for (int fps : {0, 15, 24, 30, 60}) {
    QAction* a = menu->addAction(fps == 0 ? tr("&Off") : tr("%1 fps").arg(fps));
    a->setObjectName(QStringLiteral("fpsLimit%1").arg(fps));
    a->setCheckable(true);
    a->setChecked(fps == m_limit);
    a->setActionGroup(group);
    connect(a, &QAction::triggered, this, [this, fps] { setLimit(fps); });
  }
}

}  // namespace convolab::gui
