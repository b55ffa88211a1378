// SPDX-License-Identifier: MIT
// The Camera Controls panel against the fake V4L2 device (a real UVC camera's controls, tests/data/v4l2):
// the widget each type asks for, manual controls greyed while auto is on (re-read after a change), values
// remembered per camera and in the settings, Reset to Defaults, refused values and vanished controls.
#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTest>

#include "app_settings.hpp"
#include "app_test_support.hpp"
#include "capture/fake_v4l2_device.hpp"
#include "capture/remembered_controls.hpp"
#include "gui_test_main.hpp"
#include "sources/camera_control_memory.hpp"
#include "sources/camera_controls_panel.hpp"
#include "uvc_camera.hpp"

using namespace convolab;
using namespace convolab::gui;
using capture::FakeV4l2Device;

namespace {

using namespace test::uvc;
const QString kCamera = QStringLiteral("/dev/v4l/by-id/usb-Fake_UVC_Camera-video-index0");

/// The fake with the real camera's controls, plus a button (the real list has none).
std::unique_ptr<FakeV4l2Device> fakeCamera(FakeV4l2Device** keep) {
  auto controls =
      test::uvc::controls(test::dataFile(QStringLiteral("v4l2/uvc_camera_ctrls.txt")).toStdString());
  if (controls.empty()) return nullptr;
  auto device = std::make_unique<FakeV4l2Device>(std::move(controls));
  capture::CameraControl button;
  button.id = kPanReset;
  button.name = "Pan, Reset";
  button.type = capture::ControlType::Button;
  device->addControl(button);
  *keep = device.get();
  return device;
}

}  // namespace

class CameraControlsTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("test_camera_controls")); }
  void init() { capture::RememberedControls::instance().setAll(kCamera.toStdString(), {}); }

  void controlsListedWithTheRightWidgets() {
    CameraControlsPanel panel;
    FakeV4l2Device* fake = nullptr;
    panel.setDevice(kCamera, fakeCamera(&fake));
    QVERIFY(fake);
    QWidget* brightness = panel.controlWidget(kBrightness);
    QVERIFY(brightness && brightness->findChild<QSlider*>() && brightness->findChild<QSpinBox*>());
    QCOMPARE(brightness->findChild<QSlider*>()->minimum(), -64);
    QCOMPARE(brightness->findChild<QSlider*>()->maximum(), 64);
    QVERIFY(panel.controlWidget(kWhiteBalanceAuto)->findChild<QCheckBox*>());
    auto* exposureMode = panel.controlWidget(kExposureAuto)->findChild<QComboBox*>();
    QVERIFY(exposureMode);
    QCOMPARE(exposureMode->count(), 2);  // the camera offers only Manual and Aperture Priority
    QCOMPARE(exposureMode->currentText(), QStringLiteral("Aperture Priority Mode"));
    QCOMPARE(panel.controlWidget(kPowerLine)->findChild<QComboBox*>()->count(), 3);
    QVERIFY(panel.controlWidget(kPanReset)->findChild<QPushButton*>());
    // Auto exposure on: the exposure time is greyed; switched to manual, the driver's flags free it.
    QVERIFY(!panel.controlWidget(kExposure)->isEnabled());
    exposureMode->activated(exposureMode->findText(QStringLiteral("Manual Mode")));
    QCOMPARE(fake->valueOf(kExposureAuto), 1);
    QVERIFY(panel.controlWidget(kExposure)->isEnabled());
    panel.controlWidget(kExposure)->findChild<QSpinBox*>()->setValue(300);
    QCOMPARE(fake->valueOf(kExposure), 300);
  }

  void valuesRememberedPerCameraAndReset() {
    AppSettings settings;
    CameraControlsPanel panel;
    FakeV4l2Device* fake = nullptr;
    panel.setDevice(kCamera, fakeCamera(&fake));
    panel.setOnRemembered([&settings] { saveRememberedControls(settings); });
    panel.controlWidget(kBrightness)->findChild<QSlider*>()->setValue(20);
    QCOMPARE(fake->valueOf(kBrightness), 20);
    const auto stored =
        decodeRememberedControls(settings.value(QLatin1String(kCameraControlsKey)).toStringList());
    QCOMPARE(stored.at(kCamera.toStdString()).at(kBrightness), 20);
    QTest::mouseClick(panel.resetButton(), Qt::LeftButton);
    QCOMPARE(fake->valueOf(kBrightness), 0);
    QVERIFY(capture::RememberedControls::instance().valuesFor(kCamera.toStdString()).empty());
  }

  void refusedValueSaysSoAndLosesNothingElse() {
    CameraControlsPanel panel;
    FakeV4l2Device* fake = nullptr;
    panel.setDevice(kCamera, fakeCamera(&fake));
    panel.controlWidget(kBrightness)->findChild<QSpinBox*>()->setValue(12);
    fake->refuse(kGamma);
    panel.controlWidget(kGamma)->findChild<QSpinBox*>()->setValue(200);
    QVERIFY2(panel.message().contains(QLatin1String("refused Gamma = 200")), qPrintable(panel.message()));
    QCOMPARE(panel.controlWidget(kGamma)->findChild<QSpinBox*>()->value(), 100);  // shows what the camera has
    QCOMPARE(fake->valueOf(kBrightness), 12);
    const auto remembered = capture::RememberedControls::instance().valuesFor(kCamera.toStdString());
    QCOMPARE(remembered.count(kGamma), 0u);
    QCOMPARE(remembered.at(kBrightness), 12);
  }

  void vanishedControlSaysSoAndLosesNothingElse() {
    CameraControlsPanel panel;
    FakeV4l2Device* fake = nullptr;
    panel.setDevice(kCamera, fakeCamera(&fake));
    panel.controlWidget(kBrightness)->findChild<QSpinBox*>()->setValue(7);
    fake->removeControl(kPowerLine);
    auto* combo = panel.controlWidget(kPowerLine)->findChild<QComboBox*>();
    combo->activated(2);
    QVERIFY2(panel.message().contains(QLatin1String("Power Line Frequency is no longer offered")),
             qPrintable(panel.message()));
    QVERIFY(!panel.controlWidget(kPowerLine)->isEnabled());
    QVERIFY(panel.controlWidget(kBrightness)->isEnabled());
    QCOMPARE(fake->valueOf(kBrightness), 7);
    QCOMPARE(capture::RememberedControls::instance().valuesFor(kCamera.toStdString()).at(kBrightness), 7);
  }

  void unpluggedCameraSaysSo() {
    CameraControlsPanel panel;
    FakeV4l2Device* fake = nullptr;
    panel.setDevice(kCamera, fakeCamera(&fake));
    fake->unplug();
    panel.controlWidget(kBrightness)->findChild<QSpinBox*>()->setValue(5);
    QVERIFY2(panel.message().contains(QLatin1String("gone")), qPrintable(panel.message()));
    QVERIFY(!panel.controlWidget(kBrightness)->isEnabled());
  }
};

CONVOLAB_GUI_TEST_MAIN(CameraControlsTest)
#include "test_camera_controls.moc"
