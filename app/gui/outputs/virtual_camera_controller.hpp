// SPDX-License-Identifier: MIT
// VirtualCameraController: Processing ▸ Virtual Camera. While on, the PipeWire camera "ConvoLab (filtered)"
// and, where that module is loaded, a v4l2loopback device are sinks of the pipeline's output door (fed on
// the processing thread); a status-bar label says how it is doing. Off by default; the choice is remembered.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <functional>
#include <memory>

#include "output/output_door.hpp"

class QAction;
class QLabel;
class QStatusBar;

namespace convolab::vcam {
class LoopbackFeeder;
class PipeWirePublisher;
}  // namespace convolab::vcam

namespace convolab::gui {

class AppSettings;
class Pipeline;

class VirtualCameraController : public QObject {
  Q_OBJECT

 public:
  struct Context {
    QAction* toggle;        ///< the checkable Processing ▸ Virtual Camera action
    Pipeline* pipeline;     ///< whose processed frames are sent
    AppSettings* settings;  ///< remembers on/off
    QStatusBar* statusBar;  ///< gets the indicator
    bool turnOn = false;    ///< --virtual-camera: on for this run whatever was remembered
    QString size;           ///< --virtual-camera-size (remembered); empty: the remembered one
    std::function<void(const QString& message, int ms)> message;
  };
  VirtualCameraController(Context context, QObject* parent);
  ~VirtualCameraController() override;

  bool isOn() const { return m_publisher != nullptr; }
  /// The indicator's text ("Virtual camera: 1 viewer, 30 fps, 0 dropped"); empty while off.
  QString statusText() const;

  /// How to get a virtual camera where no PipeWire answers, for people.
  static QString howToGetOne();

 public slots:
  void setOn(bool on);

 private:
  void refresh();
  void removeSinks();

  Context m_context;
  std::shared_ptr<output::OutputDoor> m_door;  // the pipeline's; shared, so removing works at any teardown
  std::shared_ptr<vcam::PipeWirePublisher> m_publisher;
  std::shared_ptr<vcam::LoopbackFeeder> m_loopback;  // null where no loopback device is loaded
  // What the door feeds: the two above, or letterboxing sinks in front of them at a chosen size.
  std::shared_ptr<output::OutputSink> m_publisherSink, m_loopbackSink;
  QLabel* m_label = nullptr;
  QTimer m_refresh;
  bool m_toldNoDaemon = false;
};

}  // namespace convolab::gui
