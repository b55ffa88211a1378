// SPDX-License-Identifier: MIT
// CameraControlsPanel: View ▸ Camera Controls — every control the camera reports, with the widget its type
// asks for (integer: slider and box on its step; boolean: check box; menu: combo box; button: button), greyed
// while the driver flags it inactive (a manual control while its auto control is on), "Reset to Defaults",
// and a line that says what the camera refused or no longer offers. Values set here are remembered per
// camera.
#pragma once

#include <QWidget>
#include <functional>
#include <map>
#include <memory>

#include "capture/v4l2_device.hpp"

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace convolab::gui {

class CameraControlsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit CameraControlsPanel(QWidget* parent = nullptr);
  ~CameraControlsPanel() override;

  /// Shows the controls of `device`, the camera `cameraId` (its stable id, the key its values are remembered
  /// by); the panel keeps the device (its own descriptor) until the next call.
  void setDevice(const QString& cameraId, std::unique_ptr<capture::V4l2Device> device);
  /// No controls: `reason` says why ("The test pattern has no camera controls.").
  void setNoDevice(const QString& reason);
  /// Reads every control again (values and flags) and updates the widgets.
  void refresh();
  /// Called after a value was remembered (the window writes the settings).
  void setOnRemembered(std::function<void()> onRemembered) { m_onRemembered = std::move(onRemembered); }

  /// For tests: the row widget of a control ("control_0x00980900"), and the message line.
  QWidget* controlWidget(std::uint32_t id) const;
  QString message() const;
  QPushButton* resetButton() const { return m_reset; }

 private:
  void rebuild();
  QWidget* makeRow(const capture::CameraControl& control);
  void apply(std::uint32_t id, std::int64_t value);
  void resetToDefaults();
  void showValue(QWidget* row, const capture::CameraControl& control);
  void say(const QString& text);

  QString m_cameraId;
  std::unique_ptr<capture::V4l2Device> m_device;
  std::vector<capture::CameraControl> m_controls;
  std::map<std::uint32_t, QWidget*> m_rows;
  std::function<void()> m_onRemembered;
  QLabel* m_message;
  QPushButton* m_reset;
  QWidget* m_form = nullptr;
  QVBoxLayout* m_layout;
};

}  // namespace convolab::gui
