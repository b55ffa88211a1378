// SPDX-License-Identifier: MIT
// Remembered control values, and applying them in an order that lets auto/manual pairs settle.
#include "remembered_controls.hpp"

#include <cstdio>

namespace convolab::capture {

namespace {

std::string hexId(std::uint32_t id) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", id);
  return text;
}

const CameraControl* findIn(const std::vector<CameraControl>& controls, std::uint32_t id) {
  for (const CameraControl& c : controls)
    if (c.id == id) return &c;
  return nullptr;
}

}  // namespace

RememberedControls& RememberedControls::instance() {
  static RememberedControls store;
  return store;
}

RememberedControls::Values RememberedControls::valuesFor(const std::string& cameraId) const {
  std::lock_guard lock(m_mutex);
  const auto it = m_values.find(cameraId);
  return it == m_values.end() ? Values{} : it->second;
}

void RememberedControls::set(const std::string& cameraId, std::uint32_t id, std::int64_t value) {
  std::lock_guard lock(m_mutex);
  m_values[cameraId][id] = value;
}

void RememberedControls::setAll(const std::string& cameraId, Values values) {
  std::lock_guard lock(m_mutex);
  m_values[cameraId] = std::move(values);
}

std::map<std::string, RememberedControls::Values> RememberedControls::all() const {
  std::lock_guard lock(m_mutex);
  return m_values;
}

std::vector<std::string> RememberedControls::lastProblems(const std::string& cameraId) const {
  std::lock_guard lock(m_mutex);
  const auto it = m_problems.find(cameraId);
  return it == m_problems.end() ? std::vector<std::string>{} : it->second;
}

void RememberedControls::setLastProblems(const std::string& cameraId, std::vector<std::string> problems) {
  std::lock_guard lock(m_mutex);
  m_problems[cameraId] = std::move(problems);
}

std::vector<std::string> applyControls(V4l2Device& device, const RememberedControls::Values& values) {
  std::vector<std::string> problems;
  const std::vector<CameraControl> before = device.queryControls();
  RememberedControls::Values retry;
  for (const auto& [id, value] : values) {
    const CameraControl* c = findIn(before, id);
    if (!c) {
      problems.push_back("a remembered control (" + hexId(id) + ") is no longer offered by the camera");
      continue;
    }
    if (c->type == ControlType::Button || c->readOnly) continue;
    try {
      device.setValue(id, value);
    } catch (const ControlError& e) {
      if (e.kind() == ControlError::Kind::DeviceGone) throw;
      retry[id] = value;  // perhaps inactive until its auto control (later in id order) was switched off
    }
  }
  if (retry.empty()) return problems;
  const std::vector<CameraControl> after = device.queryControls();
  for (const auto& [id, value] : retry) {
    const CameraControl* c = findIn(after, id);
    if (c && c->inactive) continue;
    try {
      device.setValue(id, value);
    } catch (const ControlError& e) {
      if (e.kind() == ControlError::Kind::DeviceGone) throw;
      problems.push_back(e.what());
    }
  }
  return problems;
}

std::vector<std::string> restoreRememberedControls(const std::string& cameraId, V4l2Device& device) {
  RememberedControls& store = RememberedControls::instance();
  const RememberedControls::Values values = store.valuesFor(cameraId);
  std::vector<std::string> problems =
      values.empty() ? std::vector<std::string>{} : applyControls(device, values);
  store.setLastProblems(cameraId, problems);
  return problems;
}

}  // namespace convolab::capture
