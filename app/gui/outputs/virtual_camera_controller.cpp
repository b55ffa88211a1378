// SPDX-License-Identifier: MIT
#include "outputs/virtual_camera_controller.hpp"

#include <QAction>
#include <QLabel>
#include <QStatusBar>

#include "app_settings.hpp"
#include "output/letterbox.hpp"
#include "processing/pipeline.hpp"
#include "vcam/loopback_feeder.hpp"
#include "vcam/pipewire_publisher.hpp"
#include "vcam/v4l2_loopback_writer.hpp"

namespace convolab::gui {

VirtualCameraController::VirtualCameraController(Context context, QObject* parent)
    : QObject(parent), m_context(std::move(context)), m_door(m_context.pipeline->outputDoor()) {
  m_label = new QLabel(m_context.statusBar);
  m_label->setObjectName(QStringLiteral("virtualCameraLabel"));
  m_label->hide();
  m_context.statusBar->addPermanentWidget(m_label);
  m_refresh.setInterval(500);
  connect(&m_refresh, &QTimer::timeout, this, &VirtualCameraController::refresh);
  if (!m_context.size.isEmpty()) m_context.settings->set(AppSettings::kVirtualCameraSize, m_context.size);
  const bool on = m_context.turnOn || m_context.settings->value(AppSettings::kVirtualCamera, false).toBool();
  m_context.toggle->setChecked(on);
  connect(m_context.toggle, &QAction::toggled, this, &VirtualCameraController::setOn);
  setOn(on);
}

VirtualCameraController::~VirtualCameraController() {
  removeSinks();  // the publisher removes the node
}

void VirtualCameraController::removeSinks() {
  if (m_publisherSink) m_door->remove(m_publisherSink);
  if (m_loopbackSink) m_door->remove(m_loopbackSink);
  m_publisherSink.reset();
  m_loopbackSink.reset();
  m_publisher.reset();
  m_loopback.reset();
}

QString VirtualCameraController::howToGetOne() {
  return tr(
      "No PipeWire daemon answered and no v4l2loopback device is loaded, so no virtual camera can be "
      "published. Start PipeWire (systemctl --user start pipewire wireplumber): the camera \"ConvoLab "
      "(filtered)\" appears as soon as it runs. Or load the loopback module and turn the camera on again: "
      "sudo modprobe v4l2loopback exclusive_caps=1 card_label=ConvoLab");
}

void VirtualCameraController::setOn(bool on) {
  if (on == isOn()) return;
  m_context.settings->set(AppSettings::kVirtualCamera, on);
  m_toldNoDaemon = false;
  if (on) {
    m_publisher = std::make_shared<vcam::PipeWirePublisher>();
    auto io = vcam::systemV4l2Io();
    if (const std::string path = vcam::findLoopbackDevice(*io); !path.empty()) {
      try {
        m_loopback = std::make_shared<vcam::LoopbackFeeder>(
            std::make_unique<vcam::V4l2LoopbackWriter>(path, io), path);
      } catch (const std::exception& e) {
        if (m_context.message)
          m_context.message(tr("Virtual camera: %1").arg(QString::fromUtf8(e.what())), 10000);
      }
    }
    // Each processed frame is pushed on the processing thread: a pointer swap, the conversion runs on
    // PipeWire's (the loopback's on its own). A still image already shown goes out at once.
    // At a chosen size (issue 32 item 5) each frame is letterboxed on the way in: never stretched.
    int width = 0, height = 0;
    // --virtual-camera-size wins for this run (an automated run's settings are read-only); else the
    // remembered.
    const QString size = !m_context.size.isEmpty()
                             ? m_context.size
                             : m_context.settings->value(AppSettings::kVirtualCameraSize).toString();
    if (!output::parseOutputSize(size.toStdString(), width, height) && m_context.message)
      m_context.message(tr("Virtual camera: size '%1' is not WxH; using the source's size").arg(size), 10000);
    const auto sized = [&](std::shared_ptr<output::OutputSink> sink) -> std::shared_ptr<output::OutputSink> {
      if (!sink || width == 0) return sink;
      return std::make_shared<output::LetterboxSink>(std::move(sink), width, height);
    };
    m_publisherSink = sized(m_publisher);
    m_loopbackSink = sized(m_loopback);
    m_door->add(m_publisherSink, true);
    if (m_loopbackSink) m_door->add(m_loopbackSink, true);
    m_refresh.start();
  } else {
    removeSinks();
    m_refresh.stop();
  }
  if (m_context.toggle->isChecked() != on) m_context.toggle->setChecked(on);
  refresh();
}

QString VirtualCameraController::statusText() const {
  if (!m_publisher) return {};
  QString text = QString::fromStdString(vcam::statusLine(m_publisher->status()));
  if (m_loopback) {
    const std::string error = m_loopback->error();
    text += error.empty() ? tr(" · %1: %2 written, %3 dropped")
                                .arg(QString::fromStdString(m_loopback->path()))
                                .arg(m_loopback->written())
                                .arg(m_loopback->dropped())
                          : tr(" · %1").arg(QString::fromStdString(error));
  }
  return text;
}

void VirtualCameraController::refresh() {
  if (!m_publisher) {
    m_label->hide();
    return;
  }
  const vcam::PublisherStatus status = m_publisher->status();
  const bool noDaemon = status.state == vcam::PublisherState::NoDaemon && !m_loopback;
  m_label->setText(statusText());
  // With no daemon the explanation stays on the label's tooltip (the status bar's message fades), with the
  // system's words ("Host is down") there rather than in the label (issue 33.6).
  if (noDaemon)
    m_label->setToolTip(howToGetOne() + (status.cause.empty()
                                             ? QString()
                                             : tr(" (%1)").arg(QString::fromStdString(status.cause))));
  else
    m_label->setToolTip(status.format.empty()
                            ? QString()
                            : tr("Consumers read %1").arg(QString::fromStdString(status.format)));
  m_label->show();
  m_context.toggle->setStatusTip(noDaemon ? howToGetOne() : m_context.toggle->toolTip());
  if (noDaemon && !m_toldNoDaemon && m_context.message) m_context.message(howToGetOne(), 15000);
  m_toldNoDaemon = noDaemon;
}

}  // namespace convolab::gui
