// SPDX-License-Identifier: MIT
// PresetLibrary: bundled presets (embedded in the binary) and the user's own (AppDataLocation/presets), kept
// apart.
#pragma once

#include <QList>
#include <QString>

#include "convolab/filter.hpp"

namespace convolab::gui {

struct PresetEntry {
  QString name;  ///< the filter's "name", else the file's base name
  QString path;  ///< ":/presets/x.json" for bundled ones, a file path for the user's
  bool bundled = false;
};

class PresetLibrary {
 public:
  /// `userDir` empty: QStandardPaths::AppDataLocation + "/presets".
  explicit PresetLibrary(QString userDir = {});

  QList<PresetEntry> bundled() const;
  QList<PresetEntry> user() const;
  QString userDir() const { return m_userDir; }

  /// Throws convolab::Error naming the file and what is wrong.
  FilterSet load(const PresetEntry& entry) const;
  /// The path a user preset called `name` is stored at.
  QString userPathFor(const QString& name) const;
  /// Saves (atomically) as a user preset; refuses to replace one unless `overwrite`. Returns the path.
  QString saveUser(const FilterSet& filter, const QString& name, bool overwrite) const;
  bool removeUser(const PresetEntry& entry) const;

 private:
  static QList<PresetEntry> scan(const QString& dir, bool bundled);
  QString m_userDir;
};

}  // namespace convolab::gui
