// SPDX-License-Identifier: MIT
// V4l2Device: the few V4L2 control calls ConvoLab makes, behind one small interface, so the controls panel
// and the re-applying of remembered values can be tested against a fake device (no camera on a build
// machine).
#pragma once

#include <functional>
#include <memory>

#include "camera_control.hpp"

namespace convolab::capture {

class V4l2Device {
 public:
  virtual ~V4l2Device() = default;
  /// Every control the device reports now, with its current value and flags (VIDIOC_QUERY_EXT_CTRL, menus
  /// through VIDIOC_QUERYMENU). Throws ControlError (DeviceGone) when the device is gone.
  virtual std::vector<CameraControl> queryControls() = 0;
  /// Sets one control (a Button is pressed whatever the value). Throws ControlError: Refused, Vanished or
  /// DeviceGone, with a message that names the control.
  virtual void setValue(std::uint32_t id, std::int64_t value) = 0;
};

/// Opens `devicePath` (/dev/videoN) for its controls only: a second file descriptor beside the one that
/// streams, which V4L2 allows. Throws ControlError (DeviceGone) when it cannot be opened.
std::unique_ptr<V4l2Device> openV4l2Device(const std::string& devicePath);

/// How the app opens a device's controls; tests put a fake here.
using V4l2DeviceFactory = std::function<std::unique_ptr<V4l2Device>(const std::string& devicePath)>;

}  // namespace convolab::capture
