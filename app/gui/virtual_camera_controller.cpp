// SPDX-License-Identifier: MIT
#include "virtual_camera_controller.hpp"

#include <QAction>
#include <QLabel>
#include <QStatusBar>

#include "app_settings.hpp"
#include "pipeline.hpp"
#include "vcam/pipewire_publisher.hpp"

namespace convolab::gui {

VirtualCameraController::VirtualCameraController(Context context, QObject* parent)
    : QObject(parent), m_context(std::move(context)) {
  m_label = new QLabel(m_context.statusBar);
  m_label->setObjectName(QStringLiteral("virtualCameraLabel"));
  m_label->hide();
  m_context.statusBar->addPermanentWidget(m_label);
  m_refresh.setInterval(500);
  connect(&m_refresh, &QTimer::timeout, this, &VirtualCameraController::refresh);
  // Each processed frame is handed over on this thread: a pointer swap, the conversion runs on PipeWire's.
  connect(m_context.pipeline, &Pipeline::frameProcessed, this, &VirtualCameraController::sendNewest);
  const bool on = m_context.turnOn || m_context.settings->value(AppSettings::kVirtualCamera, false).toBool();
  m_context.toggle->setChecked(on);
  connect(m_context.toggle, &QAction::toggled, this, &VirtualCameraController::setOn);
  setOn(on);
}

VirtualCameraController::~VirtualCameraController() = default;  // the publisher removes the node

QString VirtualCameraController::howToGetOne() {
  return tr(
      "No PipeWire daemon answered, so no virtual camera can be published. Start PipeWire "
      "(systemctl --user start pipewire wireplumber); the camera \"ConvoLab (filtered)\" appears as soon "
      "as it runs.");
}

void VirtualCameraController::setOn(bool on) {
  if (on == isOn()) return;
  m_context.settings->set(AppSettings::kVirtualCamera, on);
  m_toldNoDaemon = false;
  if (on) {
    m_publisher = std::make_unique<vcam::PipeWirePublisher>();
    sendNewest();
    m_refresh.start();
  } else {
    m_publisher.reset();
    m_refresh.stop();
  }
  if (m_context.toggle->isChecked() != on) m_context.toggle->setChecked(on);
  refresh();
}

void VirtualCameraController::sendNewest() {
  if (!m_publisher) return;
  if (ProcessedFramePtr frame = m_context.pipeline->latestFrame(); frame && frame->filtered)
    m_publisher->publish(frame->filtered);
}

QString VirtualCameraController::statusText() const {
  return m_publisher ? QString::fromStdString(vcam::statusLine(m_publisher->status())) : QString();
}

void VirtualCameraController::refresh() {
  if (!m_publisher) {
    m_label->hide();
    return;
  }
  const vcam::PublisherStatus status = m_publisher->status();
  m_label->setText(QString::fromStdString(vcam::statusLine(status)));
  m_label->setToolTip(
      status.format.empty() ? QString() : tr("Consumers read %1").arg(QString::fromStdString(status.format)));
  m_label->show();
  const bool noDaemon = status.state == vcam::PublisherState::NoDaemon;
  m_context.toggle->setStatusTip(noDaemon ? howToGetOne() : m_context.toggle->toolTip());
  if (noDaemon && !m_toldNoDaemon && m_context.message) m_context.message(howToGetOne(), 15000);
  m_toldNoDaemon = noDaemon;
}

}  // namespace convolab::gui
