// SPDX-License-Identifier: MIT
// PresetsMenu: the Presets menu (the editor's button and the menu bar's), rebuilt each time it opens: presets
// grouped under headings drawn as text (Blur, Sharpen, Edges, Emboss, Other, My presets), each with its
// description as tooltip and a thumbnail of it applied to the current frame; loading one, and saving the
// current filter under a name (asking before a name in use).
#pragma once

#include <QMenu>

#include "editor/preset_library.hpp"

namespace convolab::gui {

class FilterDocument;
class PresetThumbnails;

class PresetsMenu : public QMenu {
  Q_OBJECT

 public:
  /// Its dialogs (Save as Preset…) open over `parent`.
  PresetsMenu(FilterDocument* document, PresetLibrary* presets, QWidget* parent);

  /// The thumbnails (created on first use; give it a frame provider to see them).
  PresetThumbnails* thumbnails();

  // Operations without dialogs (tests call these directly). A refusal goes to message().
  bool loadPreset(const PresetEntry& entry);
  /// Refuses a name that a bundled or user preset already has (case-insensitive) unless `overwrite`.
  bool savePreset(const QString& name, bool overwrite);

 public slots:
  void savePresetWithDialog();

 signals:
  /// Something worth a status-bar line ("Saved preset 'Soft'").
  void status(const QString& message);
  /// The editor's inline message: why a preset did not load or save, or empty once one did.
  void message(const QString& message);

 private:
  void rebuild();
  void updateIcons();

  FilterDocument* m_document;
  PresetLibrary* m_presets;
  PresetThumbnails* m_thumbnails = nullptr;
};

}  // namespace convolab::gui
