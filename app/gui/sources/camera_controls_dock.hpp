// SPDX-License-Identifier: MIT
// CameraControlsDock: the dock that holds the Camera Controls panel and points it at the current source —
// its V4L2 device when the source has one (SourceTraits::controlsDevice), otherwise a line saying why there
// are no controls — again each time the camera comes back after an unplug.
#pragma once

#include <QDockWidget>
#include <functional>

#include "capture/capture_thread.hpp"
#include "capture/frame_source.hpp"

namespace convolab::gui {

class AppSettings;
class CameraControlsPanel;

class CameraControlsDock : public QDockWidget {
  Q_OBJECT

 public:
  /// `currentTraits` reads the current source's traits. Loads the remembered values from `settings`.
  CameraControlsDock(QWidget* window, AppSettings* settings,
                     std::function<capture::SourceTraits()> currentTraits);

  CameraControlsPanel* panel() const { return m_panel; }
  /// A new source was taken.
  void sourceChanged();
  /// The capture state: a camera that delivers again after an unplug is read again (values re-applied).
  void captureStatus(const capture::CaptureStatus& status);

 private:
  CameraControlsPanel* m_panel;
  std::function<capture::SourceTraits()> m_currentTraits;
  capture::CaptureState m_state = capture::CaptureState::Opening;
};

}  // namespace convolab::gui
