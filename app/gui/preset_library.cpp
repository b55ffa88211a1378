// SPDX-License-Identifier: MIT
// Presets: listing, loading through filter_io, saving the user's own atomically.
#include "preset_library.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <algorithm>

#include "convolab/error.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/regular_file.hpp"

namespace convolab::gui {

namespace {

FilterSet parseFile(const QString& path) {
  if (path.startsWith(QLatin1Char(':'))) {  // bundled, in the resources: no FIFO or huge file can be there
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
      throw Error(ErrorKind::BadInput,
                  "cannot read preset '" + path.toStdString() + "': " + file.errorString().toStdString());
    const QByteArray bytes = file.readAll();
    return parseFilterJson(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())),
                           path.toStdString());
  }
  // The user's folder may hold anything: a FIFO there must not hang the preset list.
  const std::string text =
      readRegularFileOrThrow(QFile::encodeName(path).toStdString(), kMaxFilterFileBytes, "preset");
  return parseFilterJson(text, path.toStdString());
}

}  // namespace

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
    try {
      const FilterSet f = parseFile(e.path);
      if (!f.name().empty()) e.name = QString::fromStdString(f.name());
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
