// SPDX-License-Identifier: MIT
// FrameRateLimiter: Processing ▸ Limit Frame Rate (15, 24, 30, 60, off). Where the source lists modes (a V4L2
// camera) and one matches the limit at the same size and format, the camera is reopened in it; otherwise the
// processing worker drops frames over the limit before upload (FrameRateCap). The statistics say which.
#pragma once

#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>

#include "capture/camera_list.hpp"

class QMenu;

namespace convolab::gui {

class AppSettings;
class FrameRateCap;
class SourceController;
class StatsCollector;

class FrameRateLimiter : public QObject {
  Q_OBJECT

 public:
  struct Parts {
    std::shared_ptr<FrameRateCap> cap;
    SourceController* sources;
    StatsCollector* stats;
    AppSettings* settings;
  };
  /// Starts with `launchLimit` (--fps-limit) when > 0, else the remembered limit.
  FrameRateLimiter(Parts parts, int launchLimit, QObject* parent);

  /// 0: off. `remember`: keep it in the settings (a choice in the menu; not --fps-limit).
  void setLimit(int fps, bool remember = true);
  int limit() const { return m_limit; }
  /// Fills Processing ▸ Limit Frame Rate.
  void fillMenu(QMenu* menu);
  /// The source changed or delivers again: choose its mode anew.
  void sourceChanged();

  static constexpr const char* kSettingsKey = "processing/fpsLimit";

 private:
  void chooseCameraMode();
  void report();

  Parts m_parts;
  int m_limit = 0;
  bool m_cameraMode = false;                        // the camera delivers at the limit by its mode
  std::optional<capture::CameraMode> m_modeBefore;  // what the camera had before the limit changed it
  QTimer m_reportTimer;
};

}  // namespace convolab::gui
