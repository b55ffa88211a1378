// SPDX-License-Identifier: MIT
// Camera control values to and from the settings, checked on the way in (a hand-edited file must not crash).
#include "sources/camera_control_memory.hpp"

#include "app_settings.hpp"

namespace convolab::gui {

QStringList encodeRememberedControls(const std::map<std::string, capture::RememberedControls::Values>& all) {
  QStringList list;
  for (const auto& [camera, values] : all) {
    if (values.empty()) continue;
    QStringList pairs;
    for (const auto& [id, value] : values)
      pairs << QStringLiteral("0x%1=%2").arg(id, 8, 16, QLatin1Char('0')).arg(value);
    list << QString::fromStdString(camera) + QLatin1Char('\t') + pairs.join(QLatin1Char(','));
  }
  return list;
}

std::map<std::string, capture::RememberedControls::Values> decodeRememberedControls(const QStringList& list) {
  std::map<std::string, capture::RememberedControls::Values> all;
  for (const QString& entry : list) {
    const QStringList parts = entry.split(QLatin1Char('\t'));
    if (parts.size() != 2 || parts[0].isEmpty() || parts[0].size() > 4096) continue;
    capture::RememberedControls::Values values;
    for (const QString& pair : parts[1].split(QLatin1Char(','), Qt::SkipEmptyParts)) {
      const QStringList kv = pair.split(QLatin1Char('='));
      bool idOk = false, valueOk = false;
      const uint id = kv.size() == 2 ? kv[0].toUInt(&idOk, 0) : 0;
      const qlonglong value = kv.size() == 2 ? kv[1].toLongLong(&valueOk) : 0;
      if (idOk && valueOk) values[id] = value;
    }
    if (!values.empty()) all[parts[0].toStdString()] = values;
  }
  return all;
}

void loadRememberedControls(const AppSettings& settings) {
  for (auto& [camera, values] :
       decodeRememberedControls(settings.value(QLatin1String(kCameraControlsKey)).toStringList()))
    capture::RememberedControls::instance().setAll(camera, values);
}

void saveRememberedControls(AppSettings& settings) {
  settings.set(QLatin1String(kCameraControlsKey),
               encodeRememberedControls(capture::RememberedControls::instance().all()));
}

}  // namespace convolab::gui
