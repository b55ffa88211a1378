// SPDX-License-Identifier: MIT
// Settings through QSettings (organisation and application names come from QCoreApplication), checked
// before they are read and validated key by key.
#include "app_settings.hpp"

#include <sys/stat.h>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <cmath>
#include <functional>

#include "convolab/filter_chain_io.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/registry.hpp"
#include "cv/image_codec.hpp"
#include "editor/preset_library.hpp"
#include "per_source_choice.hpp"

namespace convolab::gui {
namespace {

/// Where QSettings (native format, user scope) keeps the application's file and its organisation-wide
/// fallback on Unix; both are read when QSettings opens.
QStringList userSettingsFiles() {
  const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
  const QString org = QCoreApplication::organizationName();
  const QString app = QCoreApplication::applicationName();
  QStringList files;
  if (org.isEmpty()) return files;
  if (!app.isEmpty()) files << QStringLiteral("%1/%2/%3.conf").arg(base, org, app);
  files << QStringLiteral("%1/%2.conf").arg(base, org);
  return files;
}

/// Why `path` must not be opened (empty when it is absent or a regular file of a sane size). stat(), not
/// open(): opening a FIFO blocks.
QString unusableReason(const QString& path) {
  struct stat st {};
  if (::stat(QFile::encodeName(path).constData(), &st) != 0) return {};  // absent: QSettings creates it
  if (S_ISDIR(st.st_mode)) return QObject::tr("is a folder, not a file");
  if (S_ISFIFO(st.st_mode)) return QObject::tr("is a FIFO (named pipe), not a file");
  if (S_ISSOCK(st.st_mode)) return QObject::tr("is a socket, not a file");
  if (!S_ISREG(st.st_mode)) return QObject::tr("is a device, not a file");
  if (st.st_size > AppSettings::kMaxFileBytes)
    return QObject::tr("is %1 MB, far more than settings ever take").arg(st.st_size / (1024 * 1024));
  return {};
}

QString shortValue(const QVariant& v) {
  QString s = v.typeId() == QMetaType::QByteArray ? QStringLiteral("%1 bytes").arg(v.toByteArray().size())
                                                  : v.toString();
  if (s.size() > 40) s = s.left(37) + QStringLiteral("…");
  return s;
}

using Check = std::function<QString(const QVariant&)>;  // empty: valid; else why not

Check text(int maxLength) {
  return [maxLength](const QVariant& v) -> QString {
    if (v.typeId() != QMetaType::QString && v.typeId() != QMetaType::QByteArray)
      return QObject::tr("is not text");
    const QString s = v.toString();
    if (s.size() > maxLength)
      return QObject::tr("is %1 characters long (at most %2)").arg(s.size()).arg(maxLength);
    for (const QChar c : s)
      if (c.unicode() < 0x20) return QObject::tr("contains control characters");
    return {};
  };
}

Check boolean() {
  return [](const QVariant& v) -> QString {
    if (v.typeId() == QMetaType::Bool) return {};
    const QString s = v.toString();
    return s == QLatin1String("true") || s == QLatin1String("false") ? QString()
                                                                     : QObject::tr("is not true or false");
  };
}

Check integer(qint64 lo, qint64 hi) {
  return [lo, hi](const QVariant& v) -> QString {
    bool ok = false;
    const qint64 n = v.toString().toLongLong(&ok);
    if (!ok || n < lo || n > hi) return QObject::tr("is not a whole number from %1 to %2").arg(lo).arg(hi);
    return {};
  };
}

Check number(double lo, double hi) {
  return [lo, hi](const QVariant& v) -> QString {
    bool ok = false;
    const double d = v.toString().toDouble(&ok);
    if (!ok || !std::isfinite(d) || d < lo || d > hi)
      return QObject::tr("is not a number from %1 to %2").arg(lo).arg(hi);
    return {};
  };
}

Check bytes(int maxSize) {
  return [maxSize](const QVariant& v) -> QString {
    if (v.typeId() != QMetaType::QByteArray) return QObject::tr("is not binary data");
    return v.toByteArray().size() > maxSize
               ? QObject::tr("is %1 bytes (at most %2)").arg(v.toByteArray().size()).arg(maxSize)
               : QString();
  };
}

// A filter or chain file's JSON kept as text: at most kMaxFilterJson characters that `vet` accepts (it
// returns why not, or throws with the parser's message). `what` names it in that message ("is not a valid
// chain: …").
Check filterJson(const QString& what, std::function<QString(const std::string&)> vet) {
  return [what, vet = std::move(vet)](const QVariant& v) -> QString {
    if (v.typeId() != QMetaType::QString && v.typeId() != QMetaType::QByteArray)
      return QObject::tr("is not text");
    const QString json = v.toString();
    if (json.size() > AppSettings::kMaxFilterJson)
      return QObject::tr("is %1 characters long (at most %2)")
          .arg(json.size())
          .arg(AppSettings::kMaxFilterJson);
    try {
      return vet(json.toStdString());
    } catch (const std::exception& e) {
      return QObject::tr("is not a valid %1: %2").arg(what, QString::fromUtf8(e.what()).left(200));
    }
  };
}

Check filter() {
  return filterJson(QObject::tr("filter"), [](const std::string& json) -> QString {
    const FilterSet f = parseFilterJson(json, "settings");  // the parser of filter files
    if (f.name().size() > static_cast<std::size_t>(AppSettings::kMaxNameLength))
      return QObject::tr("has a name of %1 characters (at most %2)")
          .arg(f.name().size())
          .arg(AppSettings::kMaxNameLength);
    return {};
  });
}

Check customStep() {
  return filterJson(QObject::tr("custom step"), [](const std::string& json) -> QString {
    if (!parseFilterChainJson(json, "settings").hasCustomStep())
      return QObject::tr("holds no custom OpenCL step");
    return {};
  });
}

Check chainSteps() {
  return filterJson(QObject::tr("chain"), [](const std::string& json) -> QString {
    parseFilterChainJson(json, "settings");
    return {};
  });
}

Check strategy() {
  return [](const QVariant& v) -> QString {
    if (QString why = text(64)(v); !why.isEmpty()) return why;
    const QString s = v.toString();
    for (const auto& entry : strategyRegistry())
      if (s == QLatin1String(entry.name.data(), static_cast<qsizetype>(entry.name.size()))) return {};
    return QObject::tr("is not a strategy");
  };
}

Check pathList(int maxEntries) {
  return [maxEntries](const QVariant& v) -> QString {
    const QStringList list = v.toStringList();
    if (list.size() > maxEntries * 4) return QObject::tr("has %1 entries").arg(list.size());
    for (const QString& s : list)
      if (QString why = text(AppSettings::kMaxPath)(s); !why.isEmpty())
        return QObject::tr("has an entry that %1").arg(why);
    return {};
  };
}

}  // namespace

AppSettings::AppSettings() {
  openChecked();
  validate();
}

AppSettings::~AppSettings() = default;

void AppSettings::openChecked() {
  for (const QString& file : userSettingsFiles()) {
    const QString why = unusableReason(file);
    if (why.isEmpty()) continue;
    // A regular file that is merely huge is ours to move aside; anything else is left where it is.
    QFileInfo info(file);
    if (info.isFile()) {
      const QString aside = file + QStringLiteral(".bad-") +
                            QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
      if (QFile::rename(file, aside)) {
        m_notes << QObject::tr("The settings file %1 %2; it was moved to %3 and defaults are used.")
                       .arg(QDir::toNativeSeparators(file), why, QDir::toNativeSeparators(aside));
        continue;
      }
    }
    m_notes << QObject::tr(
                   "The settings file %1 %2: settings are not kept after this session. Remove it to "
                   "keep them again.")
                   .arg(QDir::toNativeSeparators(file), why);
    m_sessionDir = std::make_unique<QTemporaryDir>();
    m_settings = std::make_unique<QSettings>(m_sessionDir->filePath(QStringLiteral("session.conf")),
                                             QSettings::IniFormat);
    return;
  }
  m_settings = std::make_unique<QSettings>();
}

void AppSettings::validate() {
  const std::pair<QString, Check> rules[] = {
      {kFilter, filter()},
      {kFilterBaseline, filter()},
      {kLinked, boolean()},
      {kBypass, boolean()},
      {kCustomStep, customStep()},
      {kCustomOn, boolean()},
      {kChainSteps, chainSteps()},
      {kChainOn, boolean()},
      {kVirtualCamera, boolean()},
      {kVirtualCameraSize, text(16)},
      {kSource, text(kMaxPath)},
      {kCameraMode, text(kMaxPath + 64)},
      {kRecentSources, pathList(kMaxRecent)},
      {kMaxPixels, integer(kMinMaxPixels, kMaxMaxPixels)},
      {kStrategy, strategy()},
      {kDevice, text(256)},
      {kMirror, perSourceChoicesProblem},
      {kFlipOutput, perSourceChoicesProblem},
      {kViewMode, integer(0, 2)},
      {kFit, boolean()},
      {kSplit, number(0.0, 1.0)},
      {kSplitVertical, boolean()},
      {kPreviewRenderer, text(16)},
      {kGeometry, bytes(64 * 1024)},
      {kState, bytes(64 * 1024)},
      {kJpegQuality, integer(0, 100)},
      {kLastOpenDir, text(kMaxPath)},
      {kLastSaveDir, text(kMaxPath)},
      {kLastFilterExportDir, text(kMaxPath)},
      {kLastVideoExportDir, text(kMaxPath)},
  };
  for (const auto& [key, check] : rules) {
    if (!m_settings->contains(key)) continue;
    const QVariant v = m_settings->value(key);
    const QString why = check(v);
    if (why.isEmpty()) continue;
    m_rejected.insert(key);
    m_notes << QObject::tr("The setting %1 (%2) %3; using the default.").arg(key, shortValue(v), why);
  }
}

QVariant AppSettings::value(const QString& key, const QVariant& fallback) const {
  if (m_rejected.contains(key)) return fallback;
  return m_settings->value(key, fallback);
}

void AppSettings::set(const QString& key, const QVariant& value) {
  if (m_readOnly) return;
  if (!m_rejected.contains(key) && m_settings->value(key) == value) return;
  m_rejected.remove(key);
  m_settings->setValue(key, value);
  m_settings->sync();  // written on change, not only on exit: survives a crash
}

void AppSettings::remove(const QString& key) {
  if (m_readOnly) return;
  m_rejected.remove(key);
  m_settings->remove(key);
  m_settings->sync();
}

QStringList AppSettings::recentSources() const {
  QStringList list = value(kRecentSources).toStringList();
  list.removeAll(QString());
  list.removeDuplicates();
  while (list.size() > kMaxRecent) list.removeLast();
  return list;
}

void AppSettings::addRecentSource(const QString& spec) {
  QStringList list = recentSources();
  list.removeAll(spec);
  list.prepend(spec);
  while (list.size() > kMaxRecent) list.removeLast();
  set(kRecentSources, list);
}

void AppSettings::removeRecentSource(const QString& spec) {
  QStringList list = recentSources();
  list.removeAll(spec);
  set(kRecentSources, list);
}

std::int64_t AppSettings::maxPixels() const {
  return value(kMaxPixels, QVariant::fromValue<qint64>(opencv::kDefaultMaxPixels)).toLongLong();
}

std::optional<FilterSet> firstStartFilter(const PresetLibrary& presets) {
  for (const PresetEntry& entry : presets.bundled())
    if (QFileInfo(entry.path).baseName() == QLatin1String(kFirstStartPreset)) try {
        return presets.load(entry);
      } catch (const std::exception& e) {
        qWarning("%s", e.what());
      }
  return std::nullopt;
}

QString firstStartHint() {
  return QObject::tr("Edit any cell: the preview follows as you type.");
}

}  // namespace convolab::gui
