// SPDX-License-Identifier: MIT
// EditorFixture: the set-up of the filter-editor tests: an editor on a fresh document, with a preset library
// of its own in a temporary folder (removed again), made anew for each test function. A test class derives
// from QObject and from this, and calls openEditor() in init() and closeEditor() in cleanup().
#pragma once

#include <QString>
#include <memory>

#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "editor/preset_library.hpp"

class QTableWidget;

namespace convolab::test {

class EditorFixture {
 protected:
  /// Makes the document, the presets (user folder named after `presetsTag` and the process) and the editor;
  /// shows the editor when `show`.
  void openEditor(const QString& presetsTag, bool show = true);
  /// Removes the presets' user folder, then the editor, the presets and the document.
  void closeEditor();
  /// The table of channel `c` (0 = R).
  QTableWidget* table(int c) const;

  std::unique_ptr<gui::FilterDocument> m_doc;
  std::unique_ptr<gui::PresetLibrary> m_presets;
  std::unique_ptr<gui::FilterEditor> m_editor;
};

}  // namespace convolab::test
