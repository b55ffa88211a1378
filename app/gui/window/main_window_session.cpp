// SPDX-License-Identifier: MIT
// The main window's session: what it restores at start (filter, view, engine, source, geometry; the settings
// a failed validation reset) and how the layout is saved as it changes.
#include <QApplication>
#include <QScreen>
#include <QTimer>
#include <QUndoStack>
#include <algorithm>

#include "automation/automation_run.hpp"
#include "convolab/filter_io.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "log_categories.hpp"
#include "preview/preview_widget.hpp"
#include "processing/engine_selector.hpp"
#include "processing/pipeline.hpp"
#include "sources/source_controller.hpp"
#include "sources/source_factory.hpp"
#include "window/action_table.hpp"
#include "window/main_window.hpp"

namespace convolab::gui {

void MainWindow::restoreSession() {
  // An automated run (--frames, --script) leaves the user's remembered settings alone.
  if (m_run->leavesSettingsAlone()) m_settings.setReadOnly(true);
  // Settings that failed validation on load fall back to their defaults; say so once.
  const QStringList notes = m_settings.notes();
  for (const QString& note : notes) qCWarning(lcApp).noquote() << note;
  if (!notes.isEmpty())
    QTimer::singleShot(0, this, [this, notes] {
      showMessage(
          notes.size() == 1
              ? notes.first()
              : tr("%1 (and %2 more settings reset to defaults)").arg(notes.first()).arg(notes.size() - 1),
          20000);
    });

  FilterSet filter = m_document->filter();
  std::optional<FilterSet> baseline;
  const QString json = m_settings.value(AppSettings::kFilter).toString();
  // The first start (no filter remembered, none asked for, not an automated run) opens a filter whose effect
  // shows at once, in split view, with a hint; every later start restores what the user had.
  const bool firstStart = json.isEmpty() && !m_settings.contains(AppSettings::kFilter) &&
                          m_options.filter.isEmpty() && !m_settings.isReadOnly();
  if (firstStart) {
    if (std::optional<FilterSet> first = firstStartFilter(m_presets)) filter = *first;
  } else if (!json.isEmpty()) {
    try {
      filter = parseFilterJson(json.toStdString(), "settings");
    } catch (const std::exception& e) {
      m_editor->showError(tr("The filter of the last session could not be restored: %1").arg(e.what()));
    }
    // What it was loaded or saved as: an edited filter comes back marked modified ("Emboss*").
    if (const QString base = m_settings.value(AppSettings::kFilterBaseline).toString(); !base.isEmpty()) try {
        baseline = parseFilterJson(base.toStdString(), "settings");
      } catch (const std::exception&) {  // validated on load: only an older file's leftovers get here
      }
  }
  m_document->restore(filter, baseline);
  if (!m_options.filter.isEmpty() && !m_editor->importFile(m_options.filter)) {
    // The editor's inline message is only "visible" once the window shows: ask the parser directly.
    QString why = m_editor->errorText();
    if (why.isEmpty()) {
      try {
        (void)loadFilterFile(m_options.filter.toStdString());
      } catch (const std::exception& e) {
        why = QString::fromUtf8(e.what());
      }
    }
    qCWarning(lcApp).noquote() << why;
    m_run->markBadInput();
  }
  m_document->undoStack()->clear();
  m_document->setLinked(m_settings.value(AppSettings::kLinked, false).toBool());
  const bool bypass = m_settings.value(AppSettings::kBypass, false).toBool();
  action(ActionId::Bypass)->setChecked(bypass);
  m_pipeline->setBypass(bypass);
  m_pipeline->setFilter(m_document->filter());

  const int mode = m_settings.value(AppSettings::kViewMode, 0).toInt();
  setViewMode(static_cast<ViewMode>(std::clamp(mode, 0, 2)));
  // The zoom is not remembered: every start shows the whole frame (older versions' view/fit is ignored).
  m_preview->setFitToWindow(true);
  action(ActionId::Fit)->setChecked(true);
  m_preview->setSplitPosition(m_settings.value(AppSettings::kSplit, 0.5).toDouble());
  if (firstStart) {
    setViewMode(ViewMode::Split);  // original beside filtered: the effect is plain to see
    m_settings.set(AppSettings::kFilter, QString::fromStdString(toFilterJson(m_document->filter())));
    m_editor->showHint(firstStartHint());
  }
  saveBaseline();
  // Every change of the baseline (a preset, an import, a save as preset, undo) is remembered with the filter.
  connect(m_document, &FilterDocument::filterChanged, this, &MainWindow::saveBaseline);
  m_editor->setExportDir(m_settings.value(AppSettings::kLastFilterExportDir).toString());
  connect(m_editor, &FilterEditor::exportDirChosen, this,
          [this](const QString& dir) { m_settings.set(AppSettings::kLastFilterExportDir, dir); });

  m_engine->start(m_options.device, m_options.strategy);

  QString source = m_options.source;
  if (source.isEmpty()) source = m_settings.value(AppSettings::kSource, kAutoSpec).toString();
  openSourceSpec(source, cameraModeFromKey(m_settings.value(AppSettings::kCameraMode).toString(), source));

  if (!restoreGeometry(m_settings.value(AppSettings::kGeometry).toByteArray())) {
    const QRect screen = QApplication::primaryScreen() ? QApplication::primaryScreen()->availableGeometry()
                                                       : QRect(0, 0, 1600, 1000);
    resize(std::min(1560, screen.width() - 40), std::min(940, screen.height() - 40));
    move(screen.center() - rect().center());
  }
  restoreState(m_settings.value(AppSettings::kState).toByteArray());
  updateTitle();
}

void MainWindow::saveBaseline() {
  m_settings.set(AppSettings::kFilterBaseline, QString::fromStdString(toFilterJson(m_document->baseline())));
}

void MainWindow::scheduleLayoutSave() {
  m_layoutTimer.start();
}

void MainWindow::saveLayout() {
  m_settings.set(AppSettings::kGeometry, saveGeometry());
  m_settings.set(AppSettings::kState, saveState());
  m_settings.set(AppSettings::kSplit, m_preview->splitPosition());
}

}  // namespace convolab::gui
