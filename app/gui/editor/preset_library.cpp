// SPDX-License-Identifier: MIT
// Presets: listing (with each file's description and menu group), loading through filter_io, saving the
// user's own atomically.
#include "editor/preset_library.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <algorithm>
#include <cmath>

#include "convolab/error.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/regular_file.hpp"

namespace convolab::gui {

namespace {

/// The file's text: bundled ones from the resources, the user's through readRegularFileOrThrow.
std::string readPreset(const QString& path) {
  if (path.startsWith(QLatin1Char(':'))) {  // bundled, in the resources: no FIFO or huge file can be there
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
      throw Error(ErrorKind::BadInput,
                  "cannot read preset '" + path.toStdString() + "': " + file.errorString().toStdString());
    return file.readAll().toStdString();
  }
  // The user's folder may hold anything: a FIFO there must not hang the preset list.
  return readRegularFileOrThrow(QFile::encodeName(path).toStdString(), kMaxFilterFileBytes, "preset");
}

FilterSet parseFile(const QString& path) {
  return parseFilterJson(readPreset(path), path.toStdString());
}

/// The bundled files' groups (resources/presets/*.json by base name).
QString knownGroup(const QString& base) {
  static const std::pair<const char*, const char*> table[] = {
      {"box_blur", "Blur"},   {"gaussian", "Blur"},        {"motion_blur", "Blur"},
      {"sharpen", "Sharpen"}, {"unsharp_mask", "Sharpen"}, {"laplacian", "Edges"},
      {"outline", "Edges"},   {"sobel_x", "Edges"},        {"sobel_y", "Edges"},
      {"scharr", "Edges"},    {"colour_edges", "Edges"},   {"emboss", "Emboss"},
      {"identity", "Other"},  {"channel_shift", "Other"},
  };
  for (const auto& [file, group] : table)
    if (base == QLatin1String(file)) return QString::fromLatin1(group);
  return {};
}

}  // namespace

const QStringList& presetGroups() {
  // Marked for translation in the "PresetLibrary" context (the menu translates them).
  static const QStringList groups = {QString::fromLatin1(QT_TRANSLATE_NOOP("PresetLibrary", "Blur")),
                                     QString::fromLatin1(QT_TRANSLATE_NOOP("PresetLibrary", "Sharpen")),
                                     QString::fromLatin1(QT_TRANSLATE_NOOP("PresetLibrary", "Edges")),
                                     QString::fromLatin1(QT_TRANSLATE_NOOP("PresetLibrary", "Emboss")),
                                     QString::fromLatin1(QT_TRANSLATE_NOOP("PresetLibrary", "Other")),
                                     QString::fromLatin1(QT_TRANSLATE_NOOP("PresetLibrary", "My presets"))};
  return groups;
}

QString bundledPresetGroup(const QString& fileBaseName, const FilterSet& filter) {
  if (QString known = knownGroup(fileBaseName); !known.isEmpty()) return known;
  const ChannelFilter& c = filter.channel(0);
  double sum = 0, mostNegative = 0;
  for (double v : c.matrix) {
    sum += v;
    mostNegative = std::min(mostNegative, v);
  }
  const int r = (c.size - 1) / 2;
  const double centre = c.at(r, r);
  if (c.size > 1 && mostNegative >= 0) return QStringLiteral("Blur");
  if (c.size > 1 && std::abs(sum) < 1e-9) return QStringLiteral("Edges");
  if (mostNegative < 0 && centre > 0 && std::abs(sum - c.divisor) < 1e-9) return QStringLiteral("Sharpen");
  return QStringLiteral("Other");
}

PresetLibrary::PresetLibrary(QString userDir) : m_userDir(std::move(userDir)) {
  if (m_userDir.isEmpty())
    m_userDir =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/presets");
}

QList<PresetEntry> PresetLibrary::scan(const QString& dir, bool bundled) {
  QList<PresetEntry> entries;
  const QFileInfoList files = QDir(dir).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
  for (const QFileInfo& info : files) {
    PresetEntry e{info.completeBaseName(), info.filePath(), bundled};
    e.group = bundled ? QStringLiteral("Other") : presetGroups().back();
    try {
      const std::string text = readPreset(e.path);
      const FilterSet f = parseFilterJson(text, e.path.toStdString());
      if (!f.name().empty()) e.name = QString::fromStdString(f.name());
      if (bundled) e.group = bundledPresetGroup(info.completeBaseName(), f);
      const QJsonValue description = QJsonDocument::fromJson(QByteArray::fromStdString(text))
                                         .object()
                                         .value(QStringLiteral("description"));
      e.description = description.toString();
    } catch (const std::exception&) {
      // Listed by file name; loading it shows what is wrong.
    }
    entries.push_back(e);
  }
  std::sort(entries.begin(), entries.end(),
            [](const PresetEntry& a, const PresetEntry& b) { return a.name.localeAwareCompare(b.name) < 0; });
  return entries;
}

QList<PresetEntry> PresetLibrary::bundled() const {
  return scan(QStringLiteral(":/presets"), true);
}
QList<PresetEntry> PresetLibrary::user() const {
  return scan(m_userDir, false);
}

QList<PresetEntry> PresetLibrary::grouped() const {
  QList<PresetEntry> all = bundled() + user();
  // Stable: scan() already sorted each list by name.
  std::stable_sort(all.begin(), all.end(), [](const PresetEntry& a, const PresetEntry& b) {
    return presetGroups().indexOf(a.group) < presetGroups().indexOf(b.group);
  });
  return all;
}

FilterSet PresetLibrary::load(const PresetEntry& entry) const {
  return parseFile(entry.path);
}

QString PresetLibrary::userPathFor(const QString& name) const {
  QString stem = name.trimmed();
  stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._ -]+")), QStringLiteral("_"));
  if (stem.isEmpty() || stem.startsWith(QLatin1Char('.'))) stem.prepend(QStringLiteral("preset"));
  return QDir(m_userDir).filePath(stem + QStringLiteral(".json"));
}

QString PresetLibrary::saveUser(const FilterSet& filter, const QString& name, bool overwrite) const {
  QDir().mkpath(m_userDir);
  const QString path = userPathFor(name);
  saveFilterFile(path.toStdString(), filter.withName(name.trimmed().toStdString()), overwrite);
  return path;
}

bool PresetLibrary::removeUser(const PresetEntry& entry) const {
  return !entry.bundled && QFile::remove(entry.path);
}

}  // namespace convolab::gui
