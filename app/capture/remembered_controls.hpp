// SPDX-License-Identifier: MIT
// RememberedControls: the control values a person set, per camera (by its stable id), and the one function
// that applies them to a device, used when a camera opens and again when it comes back after an unplug.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "v4l2_device.hpp"

namespace convolab::capture {

class RememberedControls {
 public:
  using Values = std::map<std::uint32_t, std::int64_t>;

  /// Process-wide: the capture thread reopens a camera after an unplug on its own, and must find the values
  /// the GUI remembered (the GUI fills this from its settings and keeps both in step).
  static RememberedControls& instance();

  Values valuesFor(const std::string& cameraId) const;
  void set(const std::string& cameraId, std::uint32_t id, std::int64_t value);
  void setAll(const std::string& cameraId, Values values);
  /// Every camera's values (what the GUI writes to its settings).
  std::map<std::string, Values> all() const;
  /// What went wrong the last time the camera's values were applied (empty: all applied).
  std::vector<std::string> lastProblems(const std::string& cameraId) const;
  void setLastProblems(const std::string& cameraId, std::vector<std::string> problems);

 private:
  mutable std::mutex m_mutex;
  std::map<std::string, Values> m_values;
  std::map<std::string, std::vector<std::string>> m_problems;
};

/// Applies `values` to `device` and returns one message for each value that could not be applied (refused,
/// or a control the device no longer offers); the others are applied all the same. Auto/manual pairs are
/// handled by order: a value refused while its control was inactive is tried again after the others, and one
/// still inactive then is skipped without a message (its auto control is on: the driver ignores it). Throws
/// ControlError (DeviceGone) when the device is gone.
std::vector<std::string> applyControls(V4l2Device& device, const RememberedControls::Values& values);

/// applyControls() with the values remembered for `cameraId`; records the problems as its lastProblems.
std::vector<std::string> restoreRememberedControls(const std::string& cameraId, V4l2Device& device);

}  // namespace convolab::capture
