// SPDX-License-Identifier: MIT
// PresetLibrary: bundled presets (embedded in the binary) and the user's own (AppDataLocation/presets), kept
// apart.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include "convolab/filter.hpp"

namespace convolab::gui {

struct PresetEntry {
  QString name;  ///< the filter's "name", else the file's base name
  QString path;  ///< ":/presets/x.json" for bundled ones, a file path for the user's
  bool bundled = false;
  QString description;  ///< the file's one-line "description" (empty when it has none)
  QString group;        ///< the Presets menu's heading: one of presetGroups()
};

/// The Presets menu's headings, in menu order: Blur, Sharpen, Edges, Emboss, Other (bundled), My presets
/// (every user preset). Untranslated; translate with QCoreApplication::translate("PresetLibrary", …).
const QStringList& presetGroups();
/// The group of a bundled preset: by its file (box_blur → Blur, sobel_x → Edges, …), else guessed from the
/// weights (all ≥ 0: Blur; sum 0: Edges; a positive centre among negatives: Sharpen; else Other).
QString bundledPresetGroup(const QString& fileBaseName, const FilterSet& filter);

class PresetLibrary {
 public:
  /// `userDir` empty: QStandardPaths::AppDataLocation + "/presets".
  explicit PresetLibrary(QString userDir = {});

  QList<PresetEntry> bundled() const;
  QList<PresetEntry> user() const;
  /// Bundled then user presets, ordered by presetGroups() and then by name within a group.
  QList<PresetEntry> grouped() const;
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
