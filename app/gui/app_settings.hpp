// SPDX-License-Identifier: MIT
// AppSettings: every remembered setting, validated on load, written (and synced to disk) the moment it
// changes.
#pragma once

#include <QByteArray>
#include <QSet>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <cstdint>
#include <memory>
#include <optional>

#include "convolab/filter.hpp"

class QTemporaryDir;

namespace convolab::gui {

class PresetLibrary;

/// Keys live here only. Each setter syncs at once, so a crash loses nothing already shown on screen.
///
/// Loading is defensive: the settings file is checked with stat() before QSettings opens it (a FIFO, a
/// device, a folder or a file over kMaxFileBytes is never read: a FIFO would block start-up for good), and
/// every known key is validated (type, length, range; the filter through the same parser as filter files).
/// A value that fails is ignored — value() returns the caller's default — and notes() says why.
class AppSettings {
 public:
  AppSettings();
  ~AppSettings();
  AppSettings(const AppSettings&) = delete;
  AppSettings& operator=(const AppSettings&) = delete;

  /// The stored value, or `fallback` when absent or rejected on load.
  QVariant value(const QString& key, const QVariant& fallback = {}) const;
  void set(const QString& key, const QVariant& value);
  void remove(const QString& key);
  /// Whether `key` is stored (also when its value was rejected on load).
  bool contains(const QString& key) const { return m_settings->contains(key); }
  QString fileName() const { return m_settings->fileName(); }
  /// Read-only: set() changes nothing on disk (--frames and --script runs leave the user's settings alone).
  void setReadOnly(bool readOnly) { m_readOnly = readOnly; }
  bool isReadOnly() const { return m_readOnly; }
  /// What was wrong with the settings on load, for people (empty when all was well).
  QStringList notes() const { return m_notes; }
  /// Keys whose stored value was rejected on load.
  QSet<QString> rejectedKeys() const { return m_rejected; }

  /// Sources that opened, newest first (at most kMaxRecent).
  QStringList recentSources() const;
  void addRecentSource(const QString& spec);
  void removeRecentSource(const QString& spec);
  /// The largest image (in pixels) the app opens; images above it are refused from their header.
  std::int64_t maxPixels() const;

  static constexpr int kMaxRecent = 8;
  static constexpr qint64 kMaxFileBytes = 16 * 1024 * 1024;
  static constexpr int kMaxFilterJson = 256 * 1024;
  static constexpr int kMaxPath = 4096;
  static constexpr int kMaxNameLength = 256;
  static constexpr std::int64_t kMinMaxPixels = 1'000'000;
  static constexpr std::int64_t kMaxMaxPixels = 1'000'000'000;  // OpenCV's own decode limit is 2^30

  static inline const QString kFilter = QStringLiteral("filter/json");
  /// The filter as last loaded, reset or saved under its name (FilterDocument::baseline): the editor's
  /// "modified" star survives a restart.
  static inline const QString kFilterBaseline = QStringLiteral("filter/baseline");
  static inline const QString kLinked = QStringLiteral("filter/linked");
  static inline const QString kBypass = QStringLiteral("filter/bypass");
  /// The Custom OpenCL panel's code, parameters and border (a one-step chain file's JSON), and its switch.
  static inline const QString kCustomStep = QStringLiteral("custom/step");
  static inline const QString kCustomOn = QStringLiteral("custom/on");
  static inline const QString kChainSteps = QStringLiteral("chain/steps");  ///< the Chain dock's list (JSON)
  static inline const QString kChainOn = QStringLiteral("chain/on");
  static inline const QString kSource = QStringLiteral("source/spec");
  static inline const QString kCameraMode = QStringLiteral("source/cameraMode");  ///< "spec|FOURCC|w|h|fps"
  static inline const QString kRecentSources = QStringLiteral("source/recent");
  static inline const QString kMaxPixels = QStringLiteral("source/maxPixels");
  static inline const QString kStrategy = QStringLiteral("processing/strategy");
  static inline const QString kDevice = QStringLiteral("processing/device");
  static inline const QString kVirtualCamera = QStringLiteral("processing/virtualCamera");
  /// The virtual camera's chosen size ("1280x720", letterboxed) or "source" (--virtual-camera-size).
  static inline const QString kVirtualCameraSize = QStringLiteral("processing/virtualCameraSize");
  /// View ▸ Mirror Preview and View ▸ Flip Output, per source: ["SPEC\t1", "SPEC\t0", …], newest first
  /// (per_source_choice.hpp).
  static inline const QString kMirror = QStringLiteral("view/mirror");
  static inline const QString kFlipOutput = QStringLiteral("output/flip");
  static inline const QString kViewMode = QStringLiteral("view/mode");
  static inline const QString kFit = QStringLiteral("view/fit");
  static inline const QString kSplit = QStringLiteral("view/split");
  /// The split view's divider runs across (original above, filtered below).
  static inline const QString kSplitVertical = QStringLiteral("view/splitVertical");
  /// The preview's back-end: "auto" (OpenGL when usable), "opengl", "raster".
  static inline const QString kPreviewRenderer = QStringLiteral("view/renderer");
  static inline const QString kGeometry = QStringLiteral("window/geometry");
  static inline const QString kState = QStringLiteral("window/state");
  static inline const QString kJpegQuality = QStringLiteral("save/jpegQuality");
  static inline const QString kLastOpenDir = QStringLiteral("files/lastOpenDir");
  static inline const QString kLastSaveDir = QStringLiteral("files/lastSaveDir");
  /// Where File ▸ Export Filter and Export Filtered Video last wrote (absent: Documents / Videos).
  static inline const QString kLastFilterExportDir = QStringLiteral("files/lastFilterExportDir");
  static inline const QString kLastVideoExportDir = QStringLiteral("files/lastVideoExportDir");

 private:
  void openChecked();
  void validate();

  std::unique_ptr<QTemporaryDir> m_sessionDir;  // when the real file cannot be used: settings for this run
  std::unique_ptr<QSettings> m_settings;
  QSet<QString> m_rejected;
  QStringList m_notes;
  bool m_readOnly = false;
};

/// The bundled preset a first start opens (its file's base name): Emboss, whose effect on any picture is
/// plain at a glance, where Identity shows nothing happening.
inline constexpr const char* kFirstStartPreset = "emboss";
/// kFirstStartPreset loaded from `presets`; nullopt (with a warning) if it is missing or broken.
std::optional<FilterSet> firstStartFilter(const PresetLibrary& presets);
/// The one-line hint of the first start, shown above the editor's grids.
QString firstStartHint();

}  // namespace convolab::gui
