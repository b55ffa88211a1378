// SPDX-License-Identifier: MIT
// FakeV4l2Device: a V4L2 device for tests, with the control set of a real camera read from its
// `v4l2-ctl --list-ctrls-menus` output, the auto/manual behaviour of the UVC driver (the manual control is
// inactive while its auto control is on), and switches that unplug it, replug it, refuse a value or drop a
// control.
#pragma once

#include <set>
#include <string>

#include "v4l2_device.hpp"

namespace convolab::capture {

class FakeV4l2Device : public V4l2Device {
 public:
  /// Parses `v4l2-ctl --list-ctrls-menus` output (lines "name 0xID (type) : min=… value=… flags=…" followed
  /// by "N: label" menu lines); lines it does not know are skipped. Names become "White Balance Temperature
  /// Auto".
  static std::vector<CameraControl> parseListCtrlsMenus(const std::string& text);

  explicit FakeV4l2Device(std::vector<CameraControl> controls);

  std::vector<CameraControl> queryControls() override;
  void setValue(std::uint32_t id, std::int64_t value) override;

  // For tests.
  /// Every call fails as on an unplugged camera until replug().
  void unplug() { m_gone = true; }
  /// Back, with every control at its default (what a camera does after losing power).
  void replug();
  /// The device stops offering the control (a firmware or driver change between two sessions).
  void removeControl(std::uint32_t id);
  void addControl(const CameraControl& control);
  /// Setting this control fails as a driver that says no (EIO from a camera that stalls the request).
  void refuse(std::uint32_t id) { m_refused.insert(id); }
  /// The current value, or nullopt-like -1 when there is no such control; -2 when unplugged.
  std::int64_t valueOf(std::uint32_t id) const;
  int setCalls() const { return m_setCalls; }

 private:
  void updateFlags();
  CameraControl* find(std::uint32_t id);

  std::vector<CameraControl> m_controls;
  std::set<std::uint32_t> m_refused;
  bool m_gone = false;
  int m_setCalls = 0;
};

}  // namespace convolab::capture
