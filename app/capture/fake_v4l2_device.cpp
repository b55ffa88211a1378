// SPDX-License-Identifier: MIT
// The fake V4L2 device: a real camera's controls from text, and the UVC driver's rules for setting them.
#include "fake_v4l2_device.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

namespace convolab::capture {

namespace {

/// The UVC driver's auto/manual pairs (uvc_ctrl.c "master" controls): the manual control is inactive while
/// the auto control has a value other than `manualValue`.
struct AutoPair {
  std::uint32_t autoId;
  std::uint32_t manualId;
  std::int64_t manualValue;
};
constexpr AutoPair kAutoPairs[] = {
    {0x009a0901, 0x009a0902, 1},  // exposure_auto (1 = Manual Mode) → exposure_absolute
    {0x0098090c, 0x0098091a, 0},  // white_balance_temperature_auto → white_balance_temperature
    {0x009a090c, 0x009a090a, 0},  // focus_auto → focus_absolute
    {0x00980919, 0x00980903, 0},  // hue_auto → hue
};

std::string peopleName(const std::string& name) {
  std::string out;
  bool start = true;
  for (char c : name) {
    if (c == '_') {
      out += ' ';
      start = true;
    } else {
      out += start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      start = false;
    }
  }
  return out;
}

ControlType typeNamed(const std::string& type) {
  if (type == "int" || type == "int64") return ControlType::Integer;
  if (type == "bool") return ControlType::Boolean;
  if (type == "menu") return ControlType::Menu;
  if (type == "intmenu") return ControlType::IntegerMenu;
  if (type == "button") return ControlType::Button;
  return ControlType::Other;
}

std::int64_t field(const std::string& rest, const std::string& key, std::int64_t fallback) {
  const std::regex re("(^|\\s)" + key + "=(-?\\d+)");
  std::smatch m;
  return std::regex_search(rest, m, re) ? std::stoll(m[2].str()) : fallback;
}

}  // namespace

std::vector<CameraControl> FakeV4l2Device::parseListCtrlsMenus(const std::string& text) {
  static const std::regex control(R"(^\s*(\w+)\s+(0x[0-9a-fA-F]+)\s+\((\w+)\)\s*:(.*)$)");
  static const std::regex menuItem(R"(^\s*(-?\d+):\s*(.*?)\s*$)");
  std::vector<CameraControl> controls;
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, control)) {
      CameraControl c;
      c.name = peopleName(m[1].str());
      c.id = static_cast<std::uint32_t>(std::stoul(m[2].str(), nullptr, 16));
      c.type = typeNamed(m[3].str());
      const std::string rest = m[4].str();
      const bool isBool = c.type == ControlType::Boolean;
      c.minimum = field(rest, "min", 0);
      c.maximum = field(rest, "max", isBool ? 1 : 0);
      c.step = std::max<std::int64_t>(1, field(rest, "step", 1));
      c.defaultValue = field(rest, "default", 0);
      c.value = field(rest, "value", c.defaultValue);
      c.inactive = rest.find("inactive") != std::string::npos;
      c.readOnly = rest.find("read-only") != std::string::npos;
      controls.push_back(c);
    } else if (!controls.empty() && std::regex_match(line, m, menuItem)) {
      controls.back().menu.emplace_back(std::stoll(m[1].str()), m[2].str());
    }
  }
  return controls;
}

FakeV4l2Device::FakeV4l2Device(std::vector<CameraControl> controls) : m_controls(std::move(controls)) {
  updateFlags();
}

std::vector<CameraControl> FakeV4l2Device::queryControls() {
  if (m_gone) throw ControlError(ControlError::Kind::DeviceGone, "the camera is gone");
  return m_controls;
}

void FakeV4l2Device::setValue(std::uint32_t id, std::int64_t value) {
  ++m_setCalls;
  if (m_gone) throw ControlError(ControlError::Kind::DeviceGone, "the camera is gone");
  CameraControl* c = find(id);
  if (!c)
    throw ControlError(ControlError::Kind::Vanished,
                       "control " + std::to_string(id) + " is no longer offered by the camera");
  auto refuse = [&](const std::string& why) {
    throw ControlError(ControlError::Kind::Refused,
                       "the camera refused " + c->name + " = " + std::to_string(value) + " (" + why + ")");
  };
  if (m_refused.count(id)) refuse("Input/output error");
  if (c->readOnly) refuse("read-only");
  if (c->inactive) refuse("Permission denied: inactive while its automatic mode is on");
  if (c->type == ControlType::Button) return;
  const bool onStep = (value - c->minimum) % c->step == 0;
  if (value < c->minimum || value > c->maximum || !onStep) refuse("Numerical result out of range");
  if (!c->menu.empty() &&
      std::none_of(c->menu.begin(), c->menu.end(), [&](const auto& item) { return item.first == value; }))
    refuse("Invalid argument: no such menu entry");
  c->value = value;
  updateFlags();
}

void FakeV4l2Device::replug() {
  m_gone = false;
  for (CameraControl& c : m_controls) c.value = c.defaultValue;
  updateFlags();
}

void FakeV4l2Device::removeControl(std::uint32_t id) {
  std::erase_if(m_controls, [id](const CameraControl& c) { return c.id == id; });
}

void FakeV4l2Device::addControl(const CameraControl& control) {
  m_controls.push_back(control);
  updateFlags();
}

std::int64_t FakeV4l2Device::valueOf(std::uint32_t id) const {
  if (m_gone) return -2;
  for (const CameraControl& c : m_controls)
    if (c.id == id) return c.value;
  return -1;
}

void FakeV4l2Device::updateFlags() {
  for (const AutoPair& pair : kAutoPairs) {
    CameraControl* automatic = find(pair.autoId);
    CameraControl* manual = find(pair.manualId);
    if (automatic && manual) manual->inactive = automatic->value != pair.manualValue;
  }
}

CameraControl* FakeV4l2Device::find(std::uint32_t id) {
  for (CameraControl& c : m_controls)
    if (c.id == id) return &c;
  return nullptr;
}

}  // namespace convolab::capture
