// SPDX-License-Identifier: MIT
// The Camera Controls panel: widgets built from what the device reports, re-read after every change (the
// driver's flags decide what is greyed), and each value remembered for the camera once the device took it.
#include "sources/camera_controls_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>

#include "capture/remembered_controls.hpp"

namespace convolab::gui {

using capture::CameraControl;
using capture::ControlError;
using capture::ControlType;

namespace {

int clampInt(std::int64_t v) {
  return static_cast<int>(std::clamp<std::int64_t>(v, INT_MIN, INT_MAX));
}

QString rowName(std::uint32_t id) {
  return QStringLiteral("control_0x%1").arg(id, 8, 16, QLatin1Char('0'));
}

/// The nearest value on the control's step (a slider dragged by the mouse lands anywhere).
std::int64_t onStep(const CameraControl& c, std::int64_t v) {
  const std::int64_t step = std::max<std::int64_t>(1, c.step);
  const std::int64_t snapped = c.minimum + ((v - c.minimum) + step / 2) / step * step;
  return std::clamp(snapped, c.minimum, c.maximum);
}

}  // namespace

CameraControlsPanel::CameraControlsPanel(QWidget* parent) : QWidget(parent) {
  m_layout = new QVBoxLayout(this);
  m_message = new QLabel(this);
  m_message->setObjectName(QStringLiteral("controlsMessage"));
  m_message->setWordWrap(true);
  m_reset = new QPushButton(tr("Reset to Defaults"), this);
  m_reset->setObjectName(QStringLiteral("resetControls"));
  m_reset->setToolTip(tr("Set every control to the camera's default and forget the values set here"));
  connect(m_reset, &QPushButton::clicked, this, &CameraControlsPanel::resetToDefaults);
  m_layout->addWidget(m_message);
  m_layout->addWidget(m_reset);
  m_layout->addStretch(1);
  setNoDevice(tr("No camera is open."));
}

CameraControlsPanel::~CameraControlsPanel() = default;

void CameraControlsPanel::setDevice(const QString& cameraId, std::unique_ptr<capture::V4l2Device> device) {
  m_cameraId = cameraId;
  m_device = std::move(device);
  m_controls.clear();
  try {
    m_controls = m_device->queryControls();
    say({});
  } catch (const ControlError& e) {
    say(tr("Cannot read the camera's controls: %1").arg(QString::fromStdString(e.what())));
  }
  for (const std::string& problem :
       capture::RememberedControls::instance().lastProblems(cameraId.toStdString()))
    say(m_message->text() + tr("Not re-applied: %1. ").arg(QString::fromStdString(problem)));
  if (m_device && m_controls.empty() && m_message->text().isEmpty())
    say(tr("This camera reports no controls."));
  rebuild();
}

void CameraControlsPanel::setNoDevice(const QString& reason) {
  m_cameraId.clear();
  m_device.reset();
  m_controls.clear();
  say(reason);
  rebuild();
}

void CameraControlsPanel::rebuild() {
  delete m_form;
  m_rows.clear();
  m_form = new QWidget(this);
  auto* form = new QFormLayout(m_form);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);  // "White Balance Temperature Auto" in a narrow dock
  for (const CameraControl& c : m_controls) {
    if (c.type == ControlType::Other) continue;  // strings, arrays: nothing a webcam user sets by hand
    QWidget* row = makeRow(c);
    m_rows[c.id] = row;
    form->addRow(c.type == ControlType::Button ? QString() : QString::fromStdString(c.name), row);
    showValue(row, c);
  }
  m_layout->insertWidget(1, m_form);
  m_reset->setEnabled(m_device && !m_controls.empty());
}

QWidget* CameraControlsPanel::makeRow(const CameraControl& c) {
  auto* row = new QWidget(m_form);
  row->setObjectName(rowName(c.id));
  auto* box = new QHBoxLayout(row);
  box->setContentsMargins(0, 0, 0, 0);
  const std::uint32_t id = c.id;
  switch (c.type) {
    case ControlType::Integer: {
      auto* slider = new QSlider(Qt::Horizontal, row);
      slider->setMinimumWidth(80);
      auto* spin = new QSpinBox(row);
      slider->setRange(clampInt(c.minimum), clampInt(c.maximum));
      spin->setRange(clampInt(c.minimum), clampInt(c.maximum));
      slider->setSingleStep(clampInt(c.step));
      slider->setPageStep(
          clampInt(std::max<std::int64_t>(c.step, (c.maximum - c.minimum) / 10 / c.step * c.step)));
      spin->setSingleStep(clampInt(c.step));
      spin->setKeyboardTracking(false);
      box->addWidget(slider, 1);
      box->addWidget(spin);
      const CameraControl control = c;
      connect(slider, &QSlider::valueChanged, this,
              [this, id, control](int v) { apply(id, onStep(control, v)); });
      connect(spin, &QSpinBox::valueChanged, this,
              [this, id, control](int v) { apply(id, onStep(control, v)); });
      break;
    }
    case ControlType::Boolean: {
      auto* check = new QCheckBox(row);
      box->addWidget(check);
      connect(check, &QCheckBox::toggled, this, [this, id](bool on) { apply(id, on ? 1 : 0); });
      break;
    }
    case ControlType::Menu:
    case ControlType::IntegerMenu: {
      auto* combo = new QComboBox(row);
      for (const auto& [index, label] : c.menu)
        combo->addItem(QString::fromStdString(label), QVariant::fromValue<qlonglong>(index));
      box->addWidget(combo, 1);
      connect(combo, &QComboBox::activated, this,
              [this, id, combo](int i) { apply(id, combo->itemData(i).toLongLong()); });
      break;
    }
    case ControlType::Button: {
      auto* button = new QPushButton(QString::fromStdString(c.name), row);
      box->addWidget(button);
      connect(button, &QPushButton::clicked, this, [this, id] { apply(id, 1); });
      break;
    }
    case ControlType::Other:
      break;
  }
  return row;
}

void CameraControlsPanel::showValue(QWidget* row, const CameraControl& c) {
  row->setEnabled(!c.inactive && !c.readOnly);
  row->setToolTip(c.inactive ? tr("Set by the camera while its automatic mode is on") : QString());
  if (auto* slider = row->findChild<QSlider*>()) {
    const QSignalBlocker block(slider);
    slider->setValue(clampInt(c.value));
  }
  if (auto* spin = row->findChild<QSpinBox*>()) {
    const QSignalBlocker block(spin);
    spin->setValue(clampInt(c.value));
  }
  if (auto* check = row->findChild<QCheckBox*>()) {
    const QSignalBlocker block(check);
    check->setChecked(c.value != 0);
  }
  if (auto* combo = row->findChild<QComboBox*>()) {
    const QSignalBlocker block(combo);
    combo->setCurrentIndex(combo->findData(QVariant::fromValue<qlonglong>(c.value)));
  }
}

void CameraControlsPanel::refresh() {
  if (!m_device) return;
  std::vector<CameraControl> now;
  try {
    now = m_device->queryControls();
  } catch (const ControlError&) {
    say(tr("The camera is gone (unplugged?); its controls and remembered values come back when it does."));
    for (auto& [id, row] : m_rows) row->setEnabled(false);
    return;
  }
  for (auto& [id, row] : m_rows) {
    const auto it =
        std::find_if(now.begin(), now.end(), [id = id](const CameraControl& c) { return c.id == id; });
    if (it == now.end()) {
      row->setEnabled(false);
      row->setToolTip(tr("No longer offered by the camera"));
    } else {
      showValue(row, *it);
    }
  }
}

void CameraControlsPanel::apply(std::uint32_t id, std::int64_t value) {
  if (!m_device) return;
  const auto known =
      std::find_if(m_controls.begin(), m_controls.end(), [id](const CameraControl& c) { return c.id == id; });
  const QString name = known == m_controls.end() ? rowName(id) : QString::fromStdString(known->name);
  try {
    m_device->setValue(id, value);
    say({});
    if (known != m_controls.end() && known->type != ControlType::Button) {
      capture::RememberedControls::instance().set(m_cameraId.toStdString(), id, value);
      if (m_onRemembered) m_onRemembered();
    }
  } catch (const ControlError& e) {
    if (e.kind() == ControlError::Kind::Vanished)
      say(tr("%1 is no longer offered by the camera; the other controls are unchanged.").arg(name));
    else if (e.kind() == ControlError::Kind::Refused)
      say(tr("%1 — %2 stays as the camera has it.").arg(QString::fromStdString(e.what()), name));
    // DeviceGone: refresh() says so.
  }
  refresh();
}

void CameraControlsPanel::resetToDefaults() {
  if (!m_device) return;
  capture::RememberedControls::instance().setAll(m_cameraId.toStdString(), {});
  if (m_onRemembered) m_onRemembered();
  // Twice: a manual control is inactive (and skipped) until its auto control is back at its default, or the
  // other way round; the driver's flags, read afresh each pass, decide.
  QStringList refused;
  try {
    for (int pass = 0; pass < 2; ++pass) {
      refused.clear();
      for (const CameraControl& c : m_device->queryControls()) {
        if (c.type == ControlType::Button || c.type == ControlType::Other || c.readOnly || c.inactive)
          continue;
        if (c.value == c.defaultValue) continue;
        try {
          m_device->setValue(c.id, c.defaultValue);
        } catch (const ControlError& e) {
          if (e.kind() == ControlError::Kind::DeviceGone) throw;
          refused << QString::fromStdString(c.name);
        }
      }
    }
  } catch (const ControlError&) {
    refresh();  // says the camera is gone
    return;
  }
  say(refused.isEmpty() ? tr("Every control is at the camera's default.")
                        : tr("The camera refused to reset: %1.").arg(refused.join(QStringLiteral(", "))));
  refresh();
}

QWidget* CameraControlsPanel::controlWidget(std::uint32_t id) const {
  const auto it = m_rows.find(id);
  return it == m_rows.end() ? nullptr : it->second;
}

QString CameraControlsPanel::message() const {
  return m_message->text();
}

void CameraControlsPanel::say(const QString& text) {
  m_message->setText(text);
  m_message->setVisible(!text.isEmpty());
}

}  // namespace convolab::gui
