// SPDX-License-Identifier: MIT
// CameraControl: one control a camera driver reports (brightness, exposure, white balance…), as read from the
// device, never assumed: cameras differ in which controls they have, their ranges and their defaults.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace convolab::capture {

enum class ControlType { Integer, Boolean, Menu, IntegerMenu, Button, Other };

struct CameraControl {
  std::uint32_t id = 0;  ///< V4L2 control id (V4L2_CID_…), the same on every camera that has the control
  std::string name;      ///< the driver's name for people, e.g. "Exposure (Absolute)"
  ControlType type = ControlType::Other;
  std::int64_t minimum = 0;
  std::int64_t maximum = 0;
  std::int64_t step = 1;
  std::int64_t defaultValue = 0;
  std::int64_t value = 0;
  /// Greyed out: the driver says it has no effect now (a manual control while its auto control is on).
  bool inactive = false;
  bool readOnly = false;
  /// The menu entries the driver offers (index, label): a UVC camera may skip indices it does not support.
  std::vector<std::pair<std::int64_t, std::string>> menu;
};

/// Why a control could not be read or set; the message is for people and names the control.
class ControlError : public std::runtime_error {
 public:
  enum class Kind {
    Refused,     ///< the driver said no (value out of range, control inactive or busy)
    Vanished,    ///< the device no longer offers the control
    DeviceGone,  ///< the device itself is gone (unplugged)
  };
  ControlError(Kind kind, const std::string& message) : std::runtime_error(message), m_kind(kind) {}
  Kind kind() const { return m_kind; }

 private:
  Kind m_kind;
};

}  // namespace convolab::capture
