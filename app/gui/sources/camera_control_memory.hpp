// SPDX-License-Identifier: MIT
// Camera control values in the settings: one list under camera/controls, an entry per camera by its stable
// id, read into RememberedControls at start-up and written back whenever the Camera Controls panel changes a
// value.
#pragma once

#include <QString>
#include <QStringList>

#include "capture/remembered_controls.hpp"

namespace convolab::gui {

class AppSettings;

/// The settings key.
inline constexpr const char* kCameraControlsKey = "camera/controls";

/// "cameraId\t0x00980900=20,0x009a0901=1" per camera; malformed entries and pairs are skipped on load.
QStringList encodeRememberedControls(const std::map<std::string, capture::RememberedControls::Values>& all);
std::map<std::string, capture::RememberedControls::Values> decodeRememberedControls(const QStringList& list);

/// Fills RememberedControls::instance() from the settings (before any camera opens).
void loadRememberedControls(const AppSettings& settings);
/// Writes RememberedControls::instance() to the settings.
void saveRememberedControls(AppSettings& settings);

}  // namespace convolab::gui
