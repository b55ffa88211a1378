// SPDX-License-Identifier: MIT
// EditorFixture: one set-up for the editor, editor-input and presets-menu tests.
#include "editor_fixture.hpp"

#include <QCoreApplication>
#include <QDir>

#include "editor/channel_grid.hpp"

namespace convolab::test {

void EditorFixture::openEditor(const QString& presetsTag, bool show) {
  m_doc = std::make_unique<gui::FilterDocument>();
  m_presets = std::make_unique<gui::PresetLibrary>(QDir::temp().filePath(
      QStringLiteral("convolab-%1-%2").arg(presetsTag).arg(QCoreApplication::applicationPid())));
  m_editor = std::make_unique<gui::FilterEditor>(m_doc.get(), m_presets.get());
  if (show) m_editor->show();
}

void EditorFixture::closeEditor() {
  if (m_presets) QDir(m_presets->userDir()).removeRecursively();
  m_editor.reset();
  m_presets.reset();
  m_doc.reset();
}

QTableWidget* EditorFixture::table(int c) const {
  return m_editor->grid(c)->table();
}

}  // namespace convolab::test
