// SPDX-License-Identifier: MIT
// The Camera Controls dock: which device the panel shows, and when it reads it again.
#include "sources/camera_controls_dock.hpp"

#include <QScrollArea>

#include "app_settings.hpp"
#include "capture/camera_list.hpp"
#include "sources/camera_control_memory.hpp"
#include "sources/camera_controls_panel.hpp"

namespace convolab::gui {

CameraControlsDock::CameraControlsDock(QWidget* window, AppSettings* settings,
                                       std::function<capture::SourceTraits()> currentTraits)
    : QDockWidget(tr("Camera Controls"), window), m_currentTraits(std::move(currentTraits)) {
  setObjectName(QStringLiteral("cameraControlsDock"));
  loadRememberedControls(*settings);
  m_panel = new CameraControlsPanel(this);
  m_panel->setOnRemembered([settings] { saveRememberedControls(*settings); });
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // rows wrap instead (the panel's form)
  scroll->setWidget(m_panel);
  setWidget(scroll);
}

void CameraControlsDock::sourceChanged() {
  const capture::SourceTraits traits = m_currentTraits();
  const QString id = QString::fromStdString(traits.controlsDevice);
  if (id.isEmpty()) {
    const QString kind = QString::fromStdString(traits.kindName);
    m_panel->setNoDevice(traits.waitsForDevice  // a device, but no V4L2 one: a PipeWire camera
                             ? tr("This camera offers no controls that ConvoLab can set (PipeWire does not "
                                  "expose them to applications here).")
                             : tr("The current source (%1) has no camera controls.").arg(kind));
    return;
  }
  const std::string path = capture::resolveCameraPath(traits.controlsDevice);
  if (path.empty()) {
    m_panel->setNoDevice(tr("The camera is not connected; its controls appear when it is."));
    return;
  }
  try {
    m_panel->setDevice(id, capture::openV4l2Device(path));
  } catch (const capture::ControlError& e) {
    m_panel->setNoDevice(QString::fromStdString(e.what()));
  }
}

void CameraControlsDock::captureStatus(const capture::CaptureStatus& status) {
  const bool cameBack =
      status.state == capture::CaptureState::Running && m_state != capture::CaptureState::Running;
  m_state = status.state;
  if (cameBack) sourceChanged();  // also after the first open: the values were applied by then
}

}  // namespace convolab::gui
