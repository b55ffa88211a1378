// SPDX-License-Identifier: MIT
// FilterEditor's presets: load one, save the current filter under a name (asking before a name in use), and
// the Presets menu.
#include <QDesktopServices>
#include <QDir>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QUrl>

#include "filter_document.hpp"
#include "filter_editor.hpp"

namespace convolab::gui {

bool FilterEditor::loadPreset(const PresetEntry& entry) {
  try {
    FilterSet f = m_presets->load(entry);
    if (f.name().empty()) f = f.withName(entry.name.toStdString());
    m_document->replace(f, tr("Preset %1").arg(entry.name));
    showError({});
    emit status(tr("Preset: %1").arg(entry.name));
    return true;
  } catch (const std::exception& e) {
    showError(tr("Cannot load preset — %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
}

bool FilterEditor::savePreset(const QString& name, bool overwrite) {
  const QString trimmed = name.trimmed();
  if (!overwrite) {
    // No silent second "Identity": a name that a preset already has needs a yes first.
    for (const auto& list : {m_presets->bundled(), m_presets->user()})
      for (const PresetEntry& e : list)
        if (e.name.compare(trimmed, Qt::CaseInsensitive) == 0) {
          showError(tr("Cannot save preset — a %1 preset called '%2' already exists; choose another name "
                       "or confirm replacing it")
                        .arg(e.bundled ? tr("bundled") : tr("saved"), e.name));
          return false;
        }
  }
  try {
    const QString path = m_presets->saveUser(m_document->filter(), trimmed, overwrite);
    m_document->rename(trimmed, tr("Name filter '%1'").arg(trimmed));
    showError({});
    emit status(tr("Saved preset '%1' to %2").arg(trimmed, QDir::toNativeSeparators(path)));
    return true;
  } catch (const std::exception& e) {
    showError(tr("Cannot save preset — %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
}

void FilterEditor::savePresetWithDialog() {
  bool ok = false;
  QString suggested = QString::fromStdString(m_document->filter().name());
  if (m_document->isModified() && !suggested.isEmpty()) suggested = tr("%1 (edited)").arg(suggested);
  const QString name = QInputDialog::getText(this, tr("Save as preset"), tr("Preset name:"),
                                             QLineEdit::Normal, suggested, &ok);
  if (!ok || name.trimmed().isEmpty()) return;
  bool overwrite = false;
  for (const auto& list : {m_presets->bundled(), m_presets->user()}) {
    for (const PresetEntry& e : list) {
      if (overwrite || e.name.compare(name.trimmed(), Qt::CaseInsensitive) != 0) continue;
      const QString question =
          e.bundled ? tr("A bundled preset is already called '%1'. Save yours under the same name anyway? "
                         "(The menu will then list two.)")
                          .arg(e.name)
                    : tr("You already have a preset called '%1'. Replace it?").arg(e.name);
      if (QMessageBox::question(this, tr("Preset name in use"), question) != QMessageBox::Yes) return;
      overwrite = true;
    }
  }
  savePreset(name, overwrite);
}

void FilterEditor::rebuildPresetsMenu() {
  m_presetsMenu->clear();
  auto addEntries = [this](const QList<PresetEntry>& entries) {
    for (const PresetEntry& e : entries) {
      QAction* a = m_presetsMenu->addAction(e.name);
      a->setToolTip(QDir::toNativeSeparators(e.path));
      connect(a, &QAction::triggered, this, [this, e] { loadPreset(e); });
    }
  };
  m_presetsMenu->addSection(tr("Bundled"));
  const auto bundled = m_presets->bundled();
  addEntries(bundled);
  if (bundled.isEmpty()) m_presetsMenu->addAction(tr("(none)"))->setEnabled(false);
  m_presetsMenu->addSection(tr("My presets"));
  const auto user = m_presets->user();
  addEntries(user);
  if (user.isEmpty()) m_presetsMenu->addAction(tr("(none yet — Save as preset…)"))->setEnabled(false);
  m_presetsMenu->addSeparator();
  m_presetsMenu->addAction(tr("Save as Preset…"), this, &FilterEditor::savePresetWithDialog);
  m_presetsMenu->addAction(tr("Open My Presets Folder"), this, [this] {
    QDir().mkpath(m_presets->userDir());
    QDesktopServices::openUrl(QUrl::fromLocalFile(m_presets->userDir()));
  });
}

}  // namespace convolab::gui
