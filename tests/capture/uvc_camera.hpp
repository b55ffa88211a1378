// SPDX-License-Identifier: MIT
// The real UVC camera the camera-control tests stand in for (tests/data/v4l2/uvc_camera_ctrls.txt, its
// `v4l2-ctl --list-ctrls-menus` listing): the ids of the controls they touch and its control list, shared by
// the capture library's tests and the app's panel tests.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "capture/fake_v4l2_device.hpp"

namespace convolab::test::uvc {

// V4L2 control ids (linux/videodev2.h's V4L2_CID_*).
inline constexpr std::uint32_t kBrightness = 0x00980900;
inline constexpr std::uint32_t kGamma = 0x00980910;
inline constexpr std::uint32_t kPowerLine = 0x00980918;
inline constexpr std::uint32_t kWhiteBalanceAuto = 0x0098090c;
inline constexpr std::uint32_t kWhiteBalance = 0x0098091a;
inline constexpr std::uint32_t kExposureAuto = 0x009a0901;
inline constexpr std::uint32_t kExposure = 0x009a0902;
inline constexpr std::uint32_t kPanReset = 0x009a0906;  // a button: the real camera has none

/// The camera's controls, parsed from its listing at `listing`; empty when the file cannot be read.
inline std::vector<capture::CameraControl> controls(const std::filesystem::path& listing) {
  std::ifstream in(listing);
  std::stringstream text;
  text << in.rdbuf();
  return capture::FakeV4l2Device::parseListCtrlsMenus(text.str());
}

}  // namespace convolab::test::uvc
