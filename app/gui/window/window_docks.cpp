// SPDX-License-Identifier: MIT
// The main window's docks: made, placed, tabbed, and kept in front when floated.
#include "window/window_docks.hpp"

#include <QDockWidget>
#include <QPointer>
#include <QScrollArea>

#include "chain/step_docks.hpp"
#include "editor/filter_editor.hpp"
#include "editor/preset_thumbnails.hpp"
#include "editor/presets_menu.hpp"
#include "lab/lab_controller.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "sources/camera_controls_dock.hpp"
#include "sources/source_controller.hpp"
#include "stats/stats_feed.hpp"
#include "stats/stats_panel.hpp"
#include "window/main_window.hpp"
#include "window/window_chrome.hpp"

namespace convolab::gui {

WindowDocks::WindowDocks(const Parts& parts) : QObject(parts.window) {
  MainWindow* window = parts.window;
  QDockWidget* editorDock = addEditorDock(parts);
  QDockWidget* statsDock = addStatsDock(parts);
  m_lab = new lab::LabController(window);  // the strategy lab: compare, kernel source, analysis, inspector
  window->addDockWidget(Qt::RightDockWidgetArea, m_lab->analysisDock());
  window->tabifyDockWidget(statsDock, m_lab->analysisDock());
  statsDock->raise();
  SourceController* sources = parts.sources;
  m_cameraControls = new CameraControlsDock(window, parts.settings, [sources] { return sources->traits(); });
  window->addDockWidget(Qt::RightDockWidgetArea, m_cameraControls);
  window->tabifyDockWidget(statsDock, m_cameraControls);
  m_cameraControls->hide();
  connect(sources, &SourceController::sourceChanged, m_cameraControls, &CameraControlsDock::sourceChanged);
  connect(parts.pipeline, &Pipeline::captureStatusChanged, m_cameraControls,
          &CameraControlsDock::captureStatus);
  const StepDocks steps =
      installStepDocks(window, editorDock, parts.pipeline, parts.settings, m_editor, parts.preview);
  m_listed = {editorDock, steps.custom, steps.chain, statsDock, m_lab->analysisDock()};
  for (QDockWidget* dock : m_listed) keepFloatingDockInFront(dock);
}

QDockWidget* WindowDocks::addEditorDock(const Parts& parts) {
  m_editor = new FilterEditor(parts.document, parts.presets, parts.window);
  auto* dock = new QDockWidget(tr("Filter"), parts.window);
  dock->setObjectName(QStringLiteral("filterDock"));
  dock->setWidget(m_editor);
  dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                    QDockWidget::DockWidgetClosable);
  parts.window->addDockWidget(Qt::LeftDockWidgetArea, dock);
  // The Presets menu's thumbnails: each preset applied to a downscale of the frame on screen.
  PreviewWidget* preview = parts.preview;
  QPointer<SourceController> sources = parts.sources;  // gone first when the window closes
  m_editor->presetsMenu()->thumbnails()->setFrameProvider([preview, sources]() -> PresetThumbnails::Frame {
    const ProcessedFramePtr frame = preview->frame();
    return {frame ? frame->original : nullptr, sources ? sources->spec() : QString()};
  });
  return dock;
}

QDockWidget* WindowDocks::addStatsDock(const Parts& parts) {
  m_statsPanel = new StatsPanel(parts.window);
  auto* dock = new QDockWidget(tr("Statistics"), parts.window);
  dock->setObjectName(QStringLiteral("statsDock"));
  dock->setWidget(scrollableDockContent(m_statsPanel));  // a 720-pixel screen scrolls the stats
  dock->widget()->setMinimumWidth(360);
  parts.window->addDockWidget(Qt::RightDockWidgetArea, dock);
  SourceController* sources = parts.sources;
  m_statsFeed = new StatsFeed(
      parts.pipeline, parts.stats, m_statsPanel, [sources] { return sources->status().fps; }, parts.window);
  return dock;
}

}  // namespace convolab::gui
