// SPDX-License-Identifier: MIT
// The main window: builds the UI, restores the session, routes pipeline events to the preview and stats.
#include "window/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollArea>
#include <QStatusBar>
#include <QToolBar>
#include <QUrl>

#include "automation/automation_run.hpp"
#include "chain/step_docks.hpp"
#include "convolab/filter_io.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "editor/preset_thumbnails.hpp"
#include "lab/lab_controller.hpp"
#include "outputs/flip_output.hpp"
#include "outputs/photo_timer.hpp"
#include "outputs/save_dialogs.hpp"
#include "outputs/video_export_dialog.hpp"
#include "outputs/virtual_camera_controller.hpp"
#include "preview/mirror_preview.hpp"
#include "preview/preview_gl_canvas.hpp"
#include "preview/preview_widget.hpp"
#include "preview/seek_bar.hpp"
#include "processing/engine_selector.hpp"
#include "processing/frame_rate_limiter.hpp"
#include "processing/pipeline.hpp"
#include "resources.hpp"
#include "sources/camera_controls_dock.hpp"
#include "sources/recent_sources_menu.hpp"
#include "sources/source_controller.hpp"
#include "stats/edit_tracker.hpp"
#include "stats/stats_feed.hpp"
#include "stats/stats_panel.hpp"
#include "window/action_table.hpp"
#include "window/help_dialogs.hpp"
#include "window/window_chrome.hpp"

namespace convolab::gui {

MainWindow::MainWindow(LaunchOptions options, QWidget* parent)
    : QMainWindow(parent),
      m_options(std::move(options)),
      m_document(new FilterDocument(this)),
      m_pipeline(new Pipeline(this)) {
  initResources();
  setObjectName(QStringLiteral("mainWindow"));
  setWindowIcon(QIcon(QStringLiteral(":/icons/convolab.svg")));
  setAcceptDrops(true);
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

  m_run = new AutomationRun(
      m_options, m_pipeline, &m_stats,
      [this] {
        return AutomationRun::Facts{m_sources->status().fps, m_engine->deviceLabel(), m_engine->strategy(),
                                    m_edits ? m_edits->summary() : EditLatencySummary{},
                                    m_edits ? m_edits->firstFilteredMs() : std::nullopt};
      },
      this);
  m_preview = new PreviewWidget(this, m_settings.value(AppSettings::kPreviewRenderer).toString());
  setCentralWidget(m_preview);
  m_sources = new SourceController(
      {this, m_pipeline, m_preview, &m_settings, m_run, [this] { return m_engine->strategy(); }});
  connect(m_sources, &SourceController::message, this, &MainWindow::showMessage);
  connect(m_sources, &SourceController::sourceChanged, this, &MainWindow::updateTitle);
  buildDocks();
  m_engine = new EngineSelector(this, m_pipeline, &m_settings, m_statsPanel);
  connect(m_engine, &EngineSelector::message, this, &MainWindow::showMessage);
  m_actions = new ActionTable(this, m_document->undoStack());
  m_saves = new SaveDialogs(this, m_pipeline, &m_settings, action(ActionId::Record),
                            [this] { return m_sources->status().fps; });
  connect(m_saves, &SaveDialogs::message, this, &MainWindow::showMessage);
  m_photoTimer = new PhotoTimer(  // as Save: filtered, as it leaves
      m_preview, [this] { return m_pipeline->frameThatMayLeave(); }, this);
  connect(m_photoTimer, &PhotoTimer::message, this, &MainWindow::showMessage);
  m_mirror = new MirrorPreview({action(ActionId::MirrorPreview), m_preview, &m_settings,
                                [this] { return m_sources->traits(); }, [this] { return m_sources->spec(); }},
                               this);
  connect(m_sources, &SourceController::sourceChanged, m_mirror, &MirrorPreview::sourceChanged);
  auto* flip = new FlipOutput({action(ActionId::FlipOutput), m_pipeline->outputDoor(), &m_settings,
                               [this] { return m_sources->spec(); }},
                              m_options.flipOutput, this);
  connect(m_sources, &SourceController::sourceChanged, flip, &FlipOutput::sourceChanged);
  connect(flip, &FlipOutput::message, this, &MainWindow::showMessage);
  m_fpsLimit = new FrameRateLimiter({m_pipeline->frameRateCap(), m_sources, &m_stats, &m_settings},
                                    m_options.fpsLimit, this);
  connect(m_sources, &SourceController::sourceChanged, m_fpsLimit, &FrameRateLimiter::sourceChanged);
  connect(m_pipeline, &Pipeline::captureStatusChanged, m_fpsLimit, [this](const capture::CaptureStatus& s) {
    if (s.state == capture::CaptureState::Running) m_fpsLimit->sourceChanged();
  });
  connectActions();
  m_actions->buildMenus(menuBar(), [this](ActionSlot slot, QWidget* menu) { fillSlot(slot, menu); });
  buildToolBars();
  buildStatusBar();
  connectPipeline();
  restoreSession();
  new VirtualCameraController(
      {action(ActionId::VirtualCamera), m_pipeline, &m_settings, statusBar(), m_options.virtualCamera,
       m_options.virtualCameraSize, [this](const QString& m, int ms) { showMessage(m, ms); }},
      this);
  m_edits = new EditTracker(m_pipeline, m_preview, m_statsPanel, this);  // the restored filter is no edit
  connect(m_statsFeed, &StatsFeed::wasReset, m_edits, &EditTracker::reset);
  m_run->startScript({m_document, m_editor, m_engine, m_edits, m_preview});

  m_layoutTimer.setSingleShot(true);
  m_layoutTimer.setInterval(800);
  connect(&m_layoutTimer, &QTimer::timeout, this, &MainWindow::saveLayout);
}

MainWindow::~MainWindow() {
  // ~QWidget hides the docks and deletes children after our members are gone: cut every connection to
  // this window first, and stop the threads while everything they report to still exists.
  for (QObject* child : findChildren<QObject*>()) QObject::disconnect(child, nullptr, this, nullptr);
  delete m_sources;  // a source still opening finishes on its own thread, unseen
  m_sources = nullptr;
  delete m_pipeline;
  m_pipeline = nullptr;
}

QString MainWindow::currentSourceSpec() const {
  return m_sources->spec();
}

QString MainWindow::requestedStrategy() const {
  return m_engine->strategy();
}

QString MainWindow::deviceLabel() const {
  return m_engine->deviceLabel();
}

bool MainWindow::isLoadingSource() const {
  return m_sources->loading();
}

bool MainWindow::openerBusy() const {
  return m_sources && m_sources->openerBusy();
}

void MainWindow::buildDocks() {
  m_editor = new FilterEditor(m_document, &m_presets, this);
  auto* editorDock = new QDockWidget(tr("Filter"), this);
  editorDock->setObjectName(QStringLiteral("filterDock"));
  editorDock->setWidget(m_editor);
  editorDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                          QDockWidget::DockWidgetClosable);
  addDockWidget(Qt::LeftDockWidgetArea, editorDock);
  connect(m_editor, &FilterEditor::status, this, [this](const QString& m) { showMessage(m); });
  // The Presets menu's thumbnails: each preset applied to a downscale of the frame on screen.
  m_editor->presetThumbnails()->setFrameProvider([this]() -> PresetThumbnails::Frame {
    const ProcessedFramePtr frame = m_preview->frame();
    return {frame ? frame->original : nullptr, m_sources ? m_sources->spec() : QString()};
  });

  m_statsPanel = new StatsPanel(this);
  auto* statsDock = new QDockWidget(tr("Statistics"), this);
  statsDock->setObjectName(QStringLiteral("statsDock"));
  statsDock->setWidget(scrollableDockContent(m_statsPanel));  // a 720-pixel screen scrolls the stats
  statsDock->widget()->setMinimumWidth(360);
  addDockWidget(Qt::RightDockWidgetArea, statsDock);
  m_statsFeed = new StatsFeed(
      m_pipeline, &m_stats, m_statsPanel, [this] { return m_sources->status().fps; }, this);
  connect(m_statsFeed, &StatsFeed::message, this, &MainWindow::showMessage);
  m_lab = new lab::LabController(this);  // the strategy lab: compare, kernel source, analysis, inspector
  addDockWidget(Qt::RightDockWidgetArea, m_lab->analysisDock());
  tabifyDockWidget(statsDock, m_lab->analysisDock());
  statsDock->raise();
  m_cameraControls = new CameraControlsDock(this, &m_settings, [this] { return m_sources->traits(); });
  addDockWidget(Qt::RightDockWidgetArea, m_cameraControls);
  tabifyDockWidget(statsDock, m_cameraControls);
  m_cameraControls->hide();
  connect(m_sources, &SourceController::sourceChanged, m_cameraControls, &CameraControlsDock::sourceChanged);
  connect(m_pipeline, &Pipeline::captureStatusChanged, m_cameraControls, &CameraControlsDock::captureStatus);
  const StepDocks steps = installStepDocks(this, editorDock, m_pipeline, &m_settings, m_editor, m_preview);
  m_docks = {editorDock, steps.custom, steps.chain, statsDock, m_lab->analysisDock()};
  for (QDockWidget* dock : m_docks) {
    connect(dock, &QDockWidget::dockLocationChanged, this, &MainWindow::scheduleLayoutSave);
    connect(dock, &QDockWidget::visibilityChanged, this, &MainWindow::scheduleLayoutSave);
    keepFloatingDockInFront(dock);
  }
}

void MainWindow::connectActions() {
  using Id = ActionId;
  const ActionTable& a = *m_actions;
  auto onTriggered = [&a](Id id, auto* receiver, auto slot) {
    QObject::connect(a[id], &QAction::triggered, receiver, slot);
  };
  // Sources
  m_sources->connectActions(a);
  onTriggered(Id::ImportFilter, m_editor, &FilterEditor::importWithDialog);
  onTriggered(Id::CameraControls, this, [this] {
    m_cameraControls->show();
    m_cameraControls->raise();
  });
  onTriggered(Id::ExportFilter, m_editor, &FilterEditor::exportWithDialog);
  onTriggered(Id::SaveFrame, this, [this] { saveFrameNow(); });
  onTriggered(Id::SaveFrameAs, m_saves, &SaveDialogs::saveAs);
  onTriggered(Id::SaveFrameTimer, m_photoTimer, &PhotoTimer::startFromMenu);
  onTriggered(Id::CopyFrame, m_saves, &SaveDialogs::copy);
  connect(a[Id::Record], &QAction::toggled, m_saves, &SaveDialogs::setRecording);
  onTriggered(Id::ExportVideo, this, [this] {
    // A file source with a timeline is the video on screen: exported without asking for it again.
    const QString spec = m_sources->spec();
    const QString openVideo = m_sources->seekBar()->seekable() && QFileInfo(spec).isFile() ? spec : QString();
    exportFilteredVideo(
        this, filterForVideoExport(*m_pipeline, [this](const QString& m) { showMessage(m, 10000); }),
        m_engine->deviceSpec(), m_engine->strategy(),
        [this](const QString& message) { showMessage(message, 10000); }, &m_settings, openVideo);
  });
  onTriggered(Id::Quit, this, &QWidget::close);

  // Edit
  onTriggered(Id::CopyFilter, m_editor, &FilterEditor::copyToClipboard);
  onTriggered(Id::PasteFilter, m_editor, &FilterEditor::pasteFromClipboard);
  connect(a[Id::Link], &QAction::toggled, m_document, &FilterDocument::setLinked);
  connect(m_document, &FilterDocument::linkedChanged, a[Id::Link], &QAction::setChecked);
  onTriggered(Id::ResetIdentity, m_document, &FilterDocument::resetToIdentity);
  connect(a[Id::Bypass], &QAction::toggled, this, [this](bool on) {
    m_pipeline->setBypass(on);
    m_settings.set(AppSettings::kBypass, on);
    showMessage(on ? tr("Filter bypassed") : tr("Filter active"), 2500);
  });

  // View
  for (const ViewMode mode : {ViewMode::Filtered, ViewMode::Original, ViewMode::Split})
    onTriggered(viewAction(mode), this, [this, mode] { setViewMode(mode); });
  // Fit or 100 % checked; at another zoom neither (the preview shows it). A second click keeps the check.
  const auto showZoom = [this] {
    action(ActionId::Fit)->setChecked(m_preview->fitToWindow());
    action(ActionId::ActualSize)->setChecked(!m_preview->fitToWindow() && m_preview->view().zoom() == 1.0);
  };
  onTriggered(Id::Fit, m_preview, [this, showZoom] { m_preview->setFitToWindow(true), showZoom(); });
  onTriggered(Id::ActualSize, m_preview, [this, showZoom] { m_preview->setZoom(1.0), showZoom(); });
  onTriggered(Id::ZoomIn, m_preview, [this] { m_preview->zoomIn(); });
  onTriggered(Id::ZoomOut, m_preview, [this] { m_preview->zoomOut(); });
  connect(m_preview, &PreviewWidget::zoomChanged, this, showZoom);
  connect(a[Id::SplitVertical], &QAction::toggled, this, [this](bool on) {
    m_preview->setSplitVertical(on);
    m_settings.set(AppSettings::kSplitVertical, on);
  });
  a[Id::SplitVertical]->setChecked(m_settings.value(AppSettings::kSplitVertical, false).toBool());
  connect(a[Id::Pause], &QAction::toggled, this, &MainWindow::setPaused);
  onTriggered(Id::Step, m_pipeline, &Pipeline::step);
  installFullScreenToggle(this, a[Id::FullScreen]);
  onTriggered(Id::ResetStats, m_statsFeed, &StatsFeed::reset);
  onTriggered(Id::Shortcuts, this, [this] { m_actions->showShortcuts(this); });
  onTriggered(Id::About, this, &MainWindow::showAbout);
  onTriggered(Id::UserManual, this, [this] { showManual(this); });
  m_lab->connectActions(a);  // Compare Strategies, Kernel Source, Pixel Inspector, What Is This Strategy?
}

ActionId MainWindow::viewAction(ViewMode mode) {
  return mode == ViewMode::Original ? ActionId::ViewOriginal
         : mode == ViewMode::Split  ? ActionId::ViewSplit
                                    : ActionId::ViewFiltered;
}

void MainWindow::fillSlot(ActionSlot slot, QWidget* container) {
  auto* menu = qobject_cast<QMenu*>(container);
  switch (slot) {
    case ActionSlot::CameraMenu:
      menu->addMenu(m_sources->cameraMenu());
      break;
    case ActionSlot::CameraModeMenu:
      menu->addMenu(m_sources->cameraModeMenu());
      break;
    case ActionSlot::RecentSources:
      menu->addMenu(m_sources->recentMenu());
      break;
    case ActionSlot::ImageJCopies:
    case ActionSlot::OpenCvCopies:
      for (QAction* a : m_editor->copyMenu()->actions())
        if (slot == ActionSlot::ImageJCopies ? a->objectName().endsWith("ImageJ")
                                             : a->objectName().startsWith("copyOpenCv"))
          menu->addAction(a);
      break;
    case ActionSlot::PresetsMenu:
      qobject_cast<QMenuBar*>(container)->addMenu(m_editor->presetsMenu());
      break;
    case ActionSlot::DockToggles:
      for (QDockWidget* dock : m_docks) menu->addAction(dock->toggleViewAction());
      break;
    case ActionSlot::EngineMenus:
      m_engine->addMenus(menu);
      break;
    case ActionSlot::SourceButton:
      m_sources->addSourceButton(qobject_cast<QToolBar*>(container), *m_actions);
      break;
    case ActionSlot::EngineBoxes:
      m_engine->addBoxes(qobject_cast<QToolBar*>(container));
      break;
    case ActionSlot::FrameRateMenu:
      m_fpsLimit->fillMenu(menu->addMenu(tr("&Limit Frame Rate")));
      break;
    case ActionSlot::PhotoTimerMenu:
      m_photoTimer->fillMenu(menu->addMenu(tr("Photo &Timer")));
      break;
  }
}

void MainWindow::buildToolBars() {
  m_toolBar = addToolBar(tr("Main"));
  m_toolBar->setObjectName(QStringLiteral("mainToolBar"));
  m_toolBar->setMovable(false);
  m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  m_toolBar->setIconSize(QSize(18, 18));
  m_actions->buildToolBar(m_toolBar, [this](ActionSlot slot, QWidget* bar) { fillSlot(slot, bar); });

  // Video files: a seek bar with a frame counter along the bottom, shown only while the source can seek.
  auto* seekToolBar = new QToolBar(tr("Seek"), this);
  seekToolBar->setObjectName(QStringLiteral("seekToolBar"));
  seekToolBar->setMovable(false);
  seekToolBar->addWidget(m_sources->seekBar());
  addToolBar(Qt::BottomToolBarArea, seekToolBar);
  seekToolBar->hide();
  connect(m_sources->seekBar(), &SeekBar::availabilityChanged, seekToolBar, &QWidget::setVisible);
}

void MainWindow::buildStatusBar() {
  m_frameLabel = new QLabel(this);
  m_frameLabel->setObjectName(QStringLiteral("frameLabel"));
  m_frameLabel->setFont(QFont(QStringLiteral("DejaVu Sans Mono"), 9));
  statusBar()->addPermanentWidget(m_saves->recordLabel());
  statusBar()->addPermanentWidget(m_sources->statusLabel());
  statusBar()->addPermanentWidget(m_frameLabel);
  statusBar()->addPermanentWidget(m_engine->statusLabel());
  statusBar()->setSizeGripEnabled(false);
  // A long message (the pixel inspector's values and formula) is read whole: the source, engine and frame
  // labels step aside while it shows (the window title and the toolbar say the same).
  makeRoomForMessages(statusBar(), {m_sources->statusLabel(), m_engine->statusLabel(), m_frameLabel});
}

void MainWindow::connectPipeline() {
  connect(m_pipeline, &Pipeline::frameProcessed, this, &MainWindow::onFrameProcessed);
  connect(m_pipeline, &Pipeline::notice, this,
          [this](const QString& m) { showMessage(tr("Note: %1").arg(m), 10000); });
  connect(m_pipeline, &Pipeline::processingFailed, this, [this](const QString& m) {
    showMessage(m, 15000);
    m_run->processingFailed(m);
  });
  connect(m_document, &FilterDocument::filterChanged, this, [this](const FilterSet& f) {
    m_pipeline->setFilter(f);
    m_settings.set(AppSettings::kFilter, QString::fromStdString(toFilterJson(f)));
    updateTitle();
  });
  connect(m_document, &FilterDocument::linkedChanged, this,
          [this](bool on) { m_settings.set(AppSettings::kLinked, on); });
  connect(m_preview, &PreviewWidget::framePainted, this, [this](auto when, const FrameRecord& record) {
    m_stats.addDisplayed(when, record.captured, m_preview->lastPaintTiming().cpuMs);
  });
  const auto showRenderer = [this] {
    m_stats.setDisplayPath(m_preview->rendererDescription().toStdString());
  };
  showRenderer();
  connect(m_preview, &PreviewWidget::rendererChanged, this, showRenderer);
  // While OpenGL paints the preview, each frame it presented asks the processing thread for a compute kick
  // (the GL -> CL switch off the next frame's path; nothing on the raster path, nothing on a CPU device).
  const auto kickAfterGlFrames = [this] {
    if (auto* gl = qobject_cast<PreviewGlCanvas*>(m_preview->canvas()))
      connect(gl, &QOpenGLWidget::frameSwapped, m_pipeline, &Pipeline::requestComputeKick,
              Qt::UniqueConnection);
  };
  kickAfterGlFrames();
  connect(m_preview, &PreviewWidget::rendererChanged, this, kickAfterGlFrames);
  connect(m_pipeline, &Pipeline::filterPublished, m_preview, &PreviewWidget::setCurrentRevision);
  connect(m_pipeline, &Pipeline::processingStateChanged, m_preview, &PreviewWidget::setPreparing);
  connect(m_pipeline, &Pipeline::processingStateChanged, m_statsPanel, &StatsPanel::setProcessingState);
  // A still (an image, a one-frame clip) has no source rate, drops or budget, also while a change is
  // processed.
  const auto showStillSource = [this] { m_statsPanel->setStillSource(m_sources->status().still); };
  showStillSource();
  connect(m_sources, &SourceController::sourceChanged, m_statsPanel, showStillSource);
  connect(m_preview, &PreviewWidget::splitPositionChanged, this, &MainWindow::scheduleLayoutSave);
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  // Words beside the icons when there is room; icons (with tooltips) on smaller screens.
  if (m_toolBar)
    m_toolBar->setToolButtonStyle(width() < 1500 ? Qt::ToolButtonIconOnly : Qt::ToolButtonTextBesideIcon);
  scheduleLayoutSave();
}

void MainWindow::moveEvent(QMoveEvent* event) {
  QMainWindow::moveEvent(event);
  scheduleLayoutSave();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (action(ActionId::Record)->isChecked()) action(ActionId::Record)->setChecked(false);
  // --snapshot / --stats without --frames: written when the window closes (see docs/GUI.md).
  m_run->windowClosing();
  saveLayout();
  event->accept();
}

void MainWindow::updateTitle() {
  // "Emboss* — coffee.png — ConvoLab": the application's name last. X11 and Wayland append the display name
  // to a title that does not end with it, so "ConvoLab — Emboss — …" showed "ConvoLab" twice (issue 33.10).
  const FilterSet& f = m_document->filter();
  QStringList parts;
  if (!f.name().empty()) parts << elidedName(m_document->displayName());
  if (const std::string& source = m_sources->status().description; !source.empty())
    parts << elidedName(QString::fromStdString(source));
  parts << QStringLiteral("ConvoLab");
  setWindowTitle(parts.join(QStringLiteral(" — ")));
}

void MainWindow::showMessage(const QString& message, int ms) {
  statusBar()->showMessage(message, ms);
}

bool MainWindow::openSourceSpec(const QString& spec, const capture::CameraMode& mode) {
  return m_sources->open(spec, mode);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (urls.isEmpty() || !urls.first().isLocalFile()) return;
  const QString path = urls.first().toLocalFile();
  if (path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive))
    m_editor->importFile(path);  // a filter file
  else
    openSourceSpec(path);  // an image or a video
  event->acceptProposedAction();
}

void MainWindow::setPaused(bool paused) {
  m_pipeline->setPaused(paused);
  m_preview->setPaused(paused);
}

void MainWindow::setViewMode(ViewMode mode) {
  m_preview->setViewMode(mode);
  action(viewAction(mode))->setChecked(true);
  m_settings.set(AppSettings::kViewMode, static_cast<int>(mode));
}

void MainWindow::setStrategy(const QString& name) {
  m_engine->setStrategy(name);
}

void MainWindow::setDevice(const QString& spec) {
  m_engine->setDevice(spec);
}

void MainWindow::onFrameProcessed(const FrameRecord& record) {
  m_stats.addProcessed(record);
  // While a new source loads, the old one's frames are not shown (the preview says "Loading …").
  if (auto frame = m_pipeline->latestFrame(); frame && frame != m_preview->frame() && !m_sources->loading()) {
    if (!m_preview->frame()) m_preview->setBusyMessage({});
    m_preview->setFrame(frame);
  }
  m_preview->setBanner(record.error.isEmpty()
                           ? QString()
                           : tr("OpenCL processing failed — showing the original. %1").arg(record.error));
  // A video's frame by its time, as the seek bar says it; a live source's by its sequence number.
  m_frameLabel->setText(QStringLiteral("%1×%2  %3")
                            .arg(record.width)
                            .arg(record.height)
                            .arg(record.sourceTimeMs >= 0 ? playbackTimeText(record.sourceTimeMs)
                                                          : QStringLiteral("#%1").arg(record.sourceIndex)));
  emit frameShown(record);
  m_run->frameProcessed(record);
}

bool MainWindow::writeRunOutputs() {
  return m_run->writeOutputs();
}

QString MainWindow::saveFrameNow(const QString& dir) {
  return m_saves->saveNow(dir);
}

void MainWindow::showAbout() {
  QMessageBox::about(this, tr("About ConvoLab"),
                     tr("<h3>ConvoLab %1</h3><p>Per-channel convolution filters, live, computed with "
                        "OpenCL.</p><p>Device: %2<br>Strategy: %3<br>Preview: %4</p>")
                         .arg(QCoreApplication::applicationVersion(), m_engine->deviceLabel(),
                              m_engine->strategy(), m_preview->rendererDescription().toHtmlEscaped()));
}

}  // namespace convolab::gui
