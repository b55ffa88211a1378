// SPDX-License-Identifier: MIT
// Webcam discovery on Linux: names from sysfs, stable /dev/v4l/by-id paths, and modes from V4L2 ioctls.
#pragma once

#include <string>
#include <vector>

namespace convolab::capture {

struct CameraMode {
  std::string fourcc;  ///< "MJPG", "YUYV", ...
  int width = 0;
  int height = 0;
  double fps = 0;  ///< 0 when the driver does not say

  std::string label() const;  ///< "MJPG 1280×720 @ 30 fps"
  bool operator==(const CameraMode&) const = default;
};

struct CameraInfo {
  std::string devicePath;  ///< /dev/videoN
  std::string stableId;    ///< /dev/v4l/by-id/... when udev made one, else devicePath
  std::string name;        ///< V4L2 card name from /sys/class/video4linux/videoN/name
  int index = -1;          ///< N of /dev/videoN

  std::string label() const;  ///< "HD Webcam C920 (/dev/video0)"
};

/// Video capture devices (metadata-only nodes are skipped), sorted by index. Empty when there is none.
std::vector<CameraInfo> listCameras();

/// Modes a device offers (discrete sizes and frame intervals); best effort, empty if it cannot be asked.
/// Falls back to a list of common modes when the driver only reports step-wise sizes.
std::vector<CameraMode> listCameraModes(const std::string& devicePath);

/// The mode to start with: MJPG at 1280×720 or more (up to 1920×1080) at the highest rate, else the
/// largest mode up to 1920×1080; a default CameraMode (all zero) when `modes` is empty.
CameraMode preferredCameraMode(const std::vector<CameraMode>& modes);

/// The /dev/videoN a stable id (by-id symlink or device path) points at now; empty when it is gone.
std::string resolveCameraPath(const std::string& stableId);

}  // namespace convolab::capture
