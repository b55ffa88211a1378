// SPDX-License-Identifier: MIT
// Camera controls without a camera: the fake V4L2 device (a real UVC camera's control list), remembered
// values applied on open and again after an unplug and replug, refused values and vanished controls.
#include <gtest/gtest.h>

#include "capture/fake_v4l2_device.hpp"
#include "capture/remembered_controls.hpp"
#include "uvc_camera.hpp"

namespace convolab::capture {
namespace {

using namespace test::uvc;

std::vector<CameraControl> uvcControls() {
  return test::uvc::controls(CONVOLAB_TEST_DATA "/v4l2/uvc_camera_ctrls.txt");
}

const CameraControl& byId(const std::vector<CameraControl>& controls, std::uint32_t id) {
  for (const CameraControl& c : controls)
    if (c.id == id) return c;
  throw std::runtime_error("no control " + std::to_string(id));
}

TEST(CameraControls, FakeReadsTheRealCamerasList) {
  const auto controls = uvcControls();
  ASSERT_EQ(controls.size(), 14u);
  const CameraControl& brightness = byId(controls, kBrightness);
  EXPECT_EQ(brightness.name, "Brightness");
  EXPECT_EQ(brightness.type, ControlType::Integer);
  EXPECT_EQ(brightness.minimum, -64);
  EXPECT_EQ(brightness.maximum, 64);
  EXPECT_EQ(byId(controls, kWhiteBalanceAuto).type, ControlType::Boolean);
  const CameraControl& exposureAuto = byId(controls, kExposureAuto);
  EXPECT_EQ(exposureAuto.type, ControlType::Menu);
  ASSERT_EQ(exposureAuto.menu.size(), 2u);  // the camera offers 1 and 3 only
  EXPECT_EQ(exposureAuto.menu[1].second, "Aperture Priority Mode");
  EXPECT_EQ(byId(controls, kPowerLine).menu.size(), 3u);
  EXPECT_TRUE(byId(controls, kExposure).inactive);
  EXPECT_TRUE(byId(controls, kWhiteBalance).inactive);
}

TEST(CameraControls, ManualControlFollowsItsAutoControl) {
  FakeV4l2Device device(uvcControls());
  EXPECT_THROW(device.setValue(kExposure, 300), ControlError);  // inactive while auto
  device.setValue(kExposureAuto, 1);
  EXPECT_FALSE(byId(device.queryControls(), kExposure).inactive);
  device.setValue(kExposure, 300);
  EXPECT_EQ(device.valueOf(kExposure), 300);
}

TEST(CameraControls, RememberedValuesComeBackAfterUnplugAndReplug) {
  const std::string camera = "/dev/v4l/by-id/usb-fake-video-index0";
  RememberedControls::instance().setAll(camera, {{kBrightness, 20},
                                                 {kExposureAuto, 1},
                                                 {kExposure, 300},
                                                 {kWhiteBalanceAuto, 0},
                                                 {kWhiteBalance, 3500}});
  FakeV4l2Device device(uvcControls());
  // Opened: every value applied, the manual exposure after its auto control was switched to manual.
  EXPECT_TRUE(restoreRememberedControls(camera, device).empty());
  EXPECT_EQ(device.valueOf(kBrightness), 20);
  EXPECT_EQ(device.valueOf(kExposure), 300);
  EXPECT_EQ(device.valueOf(kWhiteBalance), 3500);
  // Unplugged: the capture thread's reopen fails; the camera comes back with its defaults.
  device.unplug();
  EXPECT_THROW(restoreRememberedControls(camera, device), ControlError);
  device.replug();
  EXPECT_EQ(device.valueOf(kBrightness), 0);
  EXPECT_TRUE(restoreRememberedControls(camera, device).empty());
  EXPECT_EQ(device.valueOf(kBrightness), 20);
  EXPECT_EQ(device.valueOf(kExposureAuto), 1);
  EXPECT_EQ(device.valueOf(kExposure), 300);
  EXPECT_EQ(device.valueOf(kWhiteBalance), 3500);
}

TEST(CameraControls, RefusedAndVanishedValuesAreReportedAndTheRestApplied) {
  FakeV4l2Device device(uvcControls());
  device.refuse(kGamma);
  device.removeControl(kPowerLine);
  const auto problems =
      applyControls(device, {{kBrightness, 10}, {kGamma, 200}, {kPowerLine, 2}, {kExposure, 50}});
  ASSERT_EQ(problems.size(), 2u);
  const std::string all = problems[0] + "\n" + problems[1];
  EXPECT_NE(all.find("the camera refused Gamma = 200"), std::string::npos) << all;
  EXPECT_NE(all.find("(0x00980918) is no longer offered"), std::string::npos) << all;
  EXPECT_EQ(device.valueOf(kBrightness), 10);
  EXPECT_EQ(device.valueOf(kGamma), 100);
  // Exposure stays inactive (auto is on and was not remembered otherwise): skipped without a message.
  EXPECT_EQ(device.valueOf(kExposure), 156);
}

}  // namespace
}  // namespace convolab::capture
