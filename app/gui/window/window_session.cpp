// SPDX-License-Identifier: MIT
// The main window's session: restored from the settings at start, saved to them as it changes.
#include "window/window_session.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QScreen>
#include <QUndoStack>
#include <algorithm>

#include "app_settings.hpp"
#include "automation/automation_run.hpp"
#include "command_line.hpp"
#include "convolab/filter_io.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "editor/filter_files.hpp"
#include "log_categories.hpp"
#include "preview/preview_widget.hpp"
#include "processing/engine_selector.hpp"
#include "processing/pipeline.hpp"
#include "sources/source_controller.hpp"
#include "sources/source_factory.hpp"
#include "window/action_table.hpp"

namespace convolab::gui {

WindowSession::WindowSession(Parts parts) : QObject(parts.window), m_parts(std::move(parts)) {
  m_layoutTimer.setSingleShot(true);
  m_layoutTimer.setInterval(800);
  connect(&m_layoutTimer, &QTimer::timeout, this, &WindowSession::saveLayout);
  const auto schedule = [this] { m_layoutTimer.start(); };
  m_parts.window->installEventFilter(this);  // its resizes and moves
  for (QDockWidget* dock : m_parts.docks) {
    connect(dock, &QDockWidget::dockLocationChanged, this, schedule);
    connect(dock, &QDockWidget::visibilityChanged, this, schedule);
  }
  connect(m_parts.preview, &PreviewWidget::splitPositionChanged, this, schedule);
  // Every change of the filter and its baseline (a preset, an import, a save as preset, undo) is remembered.
  connect(m_parts.document, &FilterDocument::filterChanged, this, [this](const FilterSet& f) {
    m_parts.settings->set(AppSettings::kFilter, QString::fromStdString(toFilterJson(f)));
    saveBaseline();
  });
  connect(m_parts.document, &FilterDocument::linkedChanged, this,
          [this](bool on) { m_parts.settings->set(AppSettings::kLinked, on); });
}

bool WindowSession::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_parts.window && (event->type() == QEvent::Resize || event->type() == QEvent::Move))
    m_layoutTimer.start();
  return QObject::eventFilter(watched, event);
}

void WindowSession::restore() {
  AppSettings& settings = *m_parts.settings;
  if (m_parts.run->leavesSettingsAlone()) settings.setReadOnly(true);
  reportResetSettings();
  const bool firstStart = restoreFilter();
  restoreControls(firstStart);
  saveBaseline();
  FilterFiles* files = m_parts.editor->files();
  files->setExportDir(settings.value(AppSettings::kLastFilterExportDir).toString());
  connect(files, &FilterFiles::exportDirChosen, this,
          [this](const QString& dir) { m_parts.settings->set(AppSettings::kLastFilterExportDir, dir); });

  m_parts.engine->start(m_parts.options.device, m_parts.options.strategy);
  QString source = m_parts.options.source;
  if (source.isEmpty()) source = settings.value(AppSettings::kSource, kAutoSpec).toString();
  m_parts.openSource(source, cameraModeFromKey(settings.value(AppSettings::kCameraMode).toString(), source));
  restoreGeometry();
}

// Settings that failed validation on load fall back to their defaults; say so once.
void WindowSession::reportResetSettings() {
  const QStringList notes = m_parts.settings->notes();
  for (const QString& note : notes) qCWarning(lcApp).noquote() << note;
  if (notes.isEmpty()) return;
  QTimer::singleShot(0, this, [this, notes] {
    m_parts.showMessage(
        notes.size() == 1
            ? notes.first()
            : tr("%1 (and %2 more settings reset to defaults)").arg(notes.first()).arg(notes.size() - 1),
        20000);
  });
}

bool WindowSession::restoreFilter() {
  const AppSettings& settings = *m_parts.settings;
  const LaunchOptions& options = m_parts.options;
  FilterSet filter = m_parts.document->filter();
  std::optional<FilterSet> baseline;
  const QString json = settings.value(AppSettings::kFilter).toString();
  // The first start (no filter remembered, none asked for, not an automated run) opens a filter whose effect
  // shows at once, in split view, with a hint; every later start restores what the user had.
  const bool firstStart = json.isEmpty() && !settings.contains(AppSettings::kFilter) &&
                          options.filter.isEmpty() && !settings.isReadOnly();
  if (firstStart) {
    if (std::optional<FilterSet> first = firstStartFilter(*m_parts.presets)) filter = *first;
  } else if (!json.isEmpty()) {
    try {
      filter = parseFilterJson(json.toStdString(), "settings");
    } catch (const std::exception& e) {
      m_parts.editor->showError(tr("The filter of the last session could not be restored: %1").arg(e.what()));
    }
    // What it was loaded or saved as: an edited filter comes back marked modified ("Emboss*").
    if (const QString base = settings.value(AppSettings::kFilterBaseline).toString(); !base.isEmpty()) try {
        baseline = parseFilterJson(base.toStdString(), "settings");
      } catch (const std::exception&) {  // validated on load: only an older file's leftovers get here
      }
  }
  m_parts.document->restore(filter, baseline);
  if (!options.filter.isEmpty() && !m_parts.editor->files()->importFile(options.filter)) {
    // The editor's inline message is only "visible" once the window shows: ask the parser directly.
    QString why = m_parts.editor->errorText();
    if (why.isEmpty()) {
      try {
        (void)loadFilterFile(options.filter.toStdString());
      } catch (const std::exception& e) {
        why = QString::fromUtf8(e.what());
      }
    }
    qCWarning(lcApp).noquote() << why;
    m_parts.run->markBadInput();
  }
  m_parts.document->undoStack()->clear();
  return firstStart;
}

// Link, bypass, view and split; the first start's split view and hint.
void WindowSession::restoreControls(bool firstStart) {
  AppSettings& settings = *m_parts.settings;
  const ActionTable& actions = *m_parts.actions;
  m_parts.document->setLinked(settings.value(AppSettings::kLinked, false).toBool());
  const bool bypass = settings.value(AppSettings::kBypass, false).toBool();
  actions[ActionId::Bypass]->setChecked(bypass);
  m_parts.pipeline->setBypass(bypass);
  m_parts.pipeline->setFilter(m_parts.document->filter());

  const int mode = settings.value(AppSettings::kViewMode, 0).toInt();
  m_parts.setViewMode(static_cast<ViewMode>(std::clamp(mode, 0, 2)));
  // The zoom is not remembered: every start shows the whole frame (older versions' view/fit is ignored).
  m_parts.preview->setFitToWindow(true);
  actions[ActionId::Fit]->setChecked(true);
  m_parts.preview->setSplitPosition(settings.value(AppSettings::kSplit, 0.5).toDouble());
  if (firstStart) {
    m_parts.setViewMode(ViewMode::Split);  // original beside filtered: the effect is plain to see
    settings.set(AppSettings::kFilter, QString::fromStdString(toFilterJson(m_parts.document->filter())));
    m_parts.editor->showHint(firstStartHint());
  }
}

void WindowSession::restoreGeometry() {
  QMainWindow* window = m_parts.window;
  if (!window->restoreGeometry(m_parts.settings->value(AppSettings::kGeometry).toByteArray())) {
    const QRect screen = QApplication::primaryScreen() ? QApplication::primaryScreen()->availableGeometry()
                                                       : QRect(0, 0, 1600, 1000);
    window->resize(std::min(1560, screen.width() - 40), std::min(940, screen.height() - 40));
    window->move(screen.center() - window->rect().center());
  }
  window->restoreState(m_parts.settings->value(AppSettings::kState).toByteArray());
}

void WindowSession::saveBaseline() {
  m_parts.settings->set(AppSettings::kFilterBaseline,
                        QString::fromStdString(toFilterJson(m_parts.document->baseline())));
}

void WindowSession::saveLayout() {
  m_parts.settings->set(AppSettings::kGeometry, m_parts.window->saveGeometry());
  m_parts.settings->set(AppSettings::kState, m_parts.window->saveState());
  m_parts.settings->set(AppSettings::kSplit, m_parts.preview->splitPosition());
}

}  // namespace convolab::gui
