// AppSettings: every remembered setting, written (and synced to disk) the moment it changes.
#pragma once

#include <QByteArray>
#include <QSettings>
#include <QString>
#include <QVariant>

namespace convolab::gui {

/// Keys live here only. Each setter syncs at once, so a crash loses nothing already shown on screen.
class AppSettings {
 public:
  AppSettings();

  QVariant value(const QString& key, const QVariant& fallback = {}) const {
    return m_settings.value(key, fallback);
  }
  void set(const QString& key, const QVariant& value);
  QString fileName() const { return m_settings.fileName(); }
  /// Read-only: set() changes nothing on disk (automated --frames runs leave the user's settings alone).
  void setReadOnly(bool readOnly) { m_readOnly = readOnly; }

  static inline const QString kFilter = QStringLiteral("filter/json");
  static inline const QString kLinked = QStringLiteral("filter/linked");
  static inline const QString kBypass = QStringLiteral("filter/bypass");
  static inline const QString kSource = QStringLiteral("source/spec");
  static inline const QString kCameraMode = QStringLiteral("source/cameraMode");  ///< "spec|FOURCC|w|h|fps"
  static inline const QString kStrategy = QStringLiteral("processing/strategy");
  static inline const QString kDevice = QStringLiteral("processing/device");
  static inline const QString kViewMode = QStringLiteral("view/mode");
  static inline const QString kFit = QStringLiteral("view/fit");
  static inline const QString kSplit = QStringLiteral("view/split");
  static inline const QString kGeometry = QStringLiteral("window/geometry");
  static inline const QString kState = QStringLiteral("window/state");
  static inline const QString kJpegQuality = QStringLiteral("save/jpegQuality");
  static inline const QString kLastOpenDir = QStringLiteral("files/lastOpenDir");
  static inline const QString kLastSaveDir = QStringLiteral("files/lastSaveDir");

 private:
  mutable QSettings m_settings;
  bool m_readOnly = false;
};

}  // namespace convolab::gui
