// SPDX-License-Identifier: MIT
// The main window: makes its parts (docks, outputs, actions, session) and connects them.
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
#include <QStatusBar>
#include <QToolBar>
#include <QUrl>

#include "automation/automation_run.hpp"
#include "chain/step_docks.hpp"
#include "convolab/filter_io.hpp"
#include "editor/filter_clipboard.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "editor/filter_files.hpp"
#include "editor/presets_menu.hpp"
#include "lab/lab_controller.hpp"
#include "outputs/flip_output.hpp"
#include "outputs/photo_timer.hpp"
#include "outputs/save_dialogs.hpp"
#include "outputs/video_export_dialog.hpp"
#include "outputs/virtual_camera_controller.hpp"
#include "preview/mirror_preview.hpp"
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
#include "window/preview_feed.hpp"
#include "window/view_actions.hpp"
#include "window/window_chrome.hpp"
#include "window/window_session.hpp"

namespace convolab::gui {

MainWindow::MainWindow(LaunchOptions options, QWidget* parent)
    : QMainWindow(parent), m_document(new FilterDocument(this)), m_pipeline(new Pipeline(this)) {
  initResources();
  setObjectName(QStringLiteral("mainWindow"));
  setWindowIcon(QIcon(QStringLiteral(":/icons/convolab.svg")));
  setAcceptDrops(true);
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

  m_run = new AutomationRun(
      options, m_pipeline, &m_stats,
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
  m_docks = new WindowDocks(
      {this, m_document, &m_presets, m_pipeline, &m_stats, &m_settings, m_preview, m_sources});
  connect(editor(), &FilterEditor::status, this, [this](const QString& m) { showMessage(m); });
  connect(m_docks->statsFeed(), &StatsFeed::message, this, &MainWindow::showMessage);
  m_engine = new EngineSelector(this, m_pipeline, &m_settings, statsPanel());
  connect(m_engine, &EngineSelector::message, this, &MainWindow::showMessage);
  m_actions = new ActionTable(this, m_document->undoStack());
  buildOutputs(options);
  m_view = new ViewActions(m_actions, m_preview, m_pipeline, &m_settings, this);
  connectActions();
  m_actions->buildMenus(menuBar(), [this](ActionSlot slot, QWidget* menu) { fillSlot(slot, menu); });
  buildToolBars();
  m_feed = new PreviewFeed({m_pipeline, m_preview, &m_stats, statsPanel(), m_sources}, this);
  buildStatusBar(m_feed->frameLabel());
  connectPipeline();
  m_session = new WindowSession(
      {this, options, &m_settings, &m_presets, m_document, editor(), m_pipeline, m_preview, m_engine, m_run,
       m_actions, m_docks->listed(), [this](ViewMode mode) { m_view->setViewMode(mode); },
       [this](const QString& spec, const capture::CameraMode& mode) { return openSourceSpec(spec, mode); },
       [this](const QString& m, int ms) { showMessage(m, ms); }});
  m_session->restore();
  updateTitle();
  new VirtualCameraController(
      {action(ActionId::VirtualCamera), m_pipeline, &m_settings, statusBar(), options.virtualCamera,
       options.virtualCameraSize, [this](const QString& m, int ms) { showMessage(m, ms); }},
      this);
  m_edits = new EditTracker(m_pipeline, m_preview, statsPanel(), this);  // the restored filter is no edit
  connect(m_docks->statsFeed(), &StatsFeed::wasReset, m_edits, &EditTracker::reset);
  m_run->startScript({m_document, editor(), m_engine, m_edits, m_preview});
}

MainWindow::~MainWindow() {
  // ~QWidget hides the docks and deletes children after our members are gone: cut every connection to
  // this window and to the objects that connect its parts first, and stop the threads while everything they
  // report to still exists.
  for (QObject* child : findChildren<QObject*>()) QObject::disconnect(child, nullptr, this, nullptr);
  delete m_feed;
  delete m_view;
  delete m_session;
  delete m_sources;  // a source still opening finishes on its own thread, unseen
  m_sources = nullptr;
  delete m_pipeline;
  m_pipeline = nullptr;
}

// Save Frame and its dialogs, the photo timer, Mirror Preview, Flip Output and the frame-rate limit.
void MainWindow::buildOutputs(const LaunchOptions& options) {
  m_saves = new SaveDialogs(this, m_pipeline, &m_settings, action(ActionId::Record),
                            [this] { return m_sources->status().fps; });
  connect(m_saves, &SaveDialogs::message, this, &MainWindow::showMessage);
  m_photoTimer = new PhotoTimer(  // as Save: filtered, as it leaves
      m_preview, [this] { return m_pipeline->frameThatMayLeave(); }, this);
  connect(m_photoTimer, &PhotoTimer::message, this, &MainWindow::showMessage);
  auto* mirror =
      new MirrorPreview({action(ActionId::MirrorPreview), m_preview, &m_settings,
                         [this] { return m_sources->traits(); }, [this] { return m_sources->spec(); }},
                        this);
  connect(m_sources, &SourceController::sourceChanged, mirror, &MirrorPreview::sourceChanged);
  auto* flip = new FlipOutput({action(ActionId::FlipOutput), m_pipeline->outputDoor(), &m_settings,
                               [this] { return m_sources->spec(); }},
                              options.flipOutput, this);
  connect(m_sources, &SourceController::sourceChanged, flip, &FlipOutput::sourceChanged);
  connect(flip, &FlipOutput::message, this, &MainWindow::showMessage);
  m_fpsLimit = new FrameRateLimiter({m_pipeline->frameRateCap(), m_sources, &m_stats, &m_settings},
                                    options.fpsLimit, this);
  connect(m_sources, &SourceController::sourceChanged, m_fpsLimit, &FrameRateLimiter::sourceChanged);
  connect(m_pipeline, &Pipeline::captureStatusChanged, m_fpsLimit, [this](const capture::CaptureStatus& s) {
    if (s.state == capture::CaptureState::Running) m_fpsLimit->sourceChanged();
  });
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

void MainWindow::connectActions() {
  using Id = ActionId;
  const ActionTable& a = *m_actions;
  auto onTriggered = [&a](Id id, auto* receiver, auto slot) {
    QObject::connect(a[id], &QAction::triggered, receiver, slot);
  };
  // Sources
  m_sources->connectActions(a);
  onTriggered(Id::ImportFilter, editor()->files(), &FilterFiles::importWithDialog);
  onTriggered(Id::CameraControls, this, [this] {
    cameraControls()->show();
    cameraControls()->raise();
  });
  onTriggered(Id::ExportFilter, editor()->files(), &FilterFiles::exportWithDialog);
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
  onTriggered(Id::CopyFilter, editor()->clipboard(), &FilterClipboard::copyToClipboard);
  onTriggered(Id::PasteFilter, editor()->clipboard(), &FilterClipboard::pasteFromClipboard);
  connect(a[Id::Link], &QAction::toggled, m_document, &FilterDocument::setLinked);
  connect(m_document, &FilterDocument::linkedChanged, a[Id::Link], &QAction::setChecked);
  onTriggered(Id::ResetIdentity, m_document, &FilterDocument::resetToIdentity);
  connect(a[Id::Bypass], &QAction::toggled, this, [this](bool on) {
    m_pipeline->setBypass(on);
    m_settings.set(AppSettings::kBypass, on);
    showMessage(on ? tr("Filter bypassed") : tr("Filter active"), 2500);
  });

  // View (the preview's actions are ViewActions')
  installFullScreenToggle(this, a[Id::FullScreen]);
  onTriggered(Id::ResetStats, m_docks->statsFeed(), &StatsFeed::reset);
  onTriggered(Id::Shortcuts, this, [this] { m_actions->showShortcuts(this); });
  onTriggered(Id::About, this, &MainWindow::showAbout);
  onTriggered(Id::UserManual, this, [this] { showManual(this); });
  lab()->connectActions(a);  // Compare Strategies, Kernel Source, Pixel Inspector, What Is This Strategy?
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
      for (QAction* a : editor()->copyMenu()->actions())
        if (slot == ActionSlot::ImageJCopies ? a->objectName().endsWith("ImageJ")
                                             : a->objectName().startsWith("copyOpenCv"))
          menu->addAction(a);
      break;
    case ActionSlot::PresetsMenu:
      qobject_cast<QMenuBar*>(container)->addMenu(editor()->presetsMenu());
      break;
    case ActionSlot::DockToggles:
      for (QDockWidget* dock : m_docks->listed()) menu->addAction(dock->toggleViewAction());
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

void MainWindow::buildStatusBar(QLabel* frameLabel) {
  statusBar()->addPermanentWidget(m_saves->recordLabel());
  statusBar()->addPermanentWidget(m_sources->statusLabel());
  statusBar()->addPermanentWidget(frameLabel);
  statusBar()->addPermanentWidget(m_engine->statusLabel());
  statusBar()->setSizeGripEnabled(false);
  // A long message (the pixel inspector's values and formula) is read whole: the source, engine and frame
  // labels step aside while it shows (the window title and the toolbar say the same).
  makeRoomForMessages(statusBar(), {m_sources->statusLabel(), m_engine->statusLabel(), frameLabel});
}

void MainWindow::connectPipeline() {
  // The feed's frames: the window's own signal, then the automation run's count (the N-th frame ends it).
  connect(m_feed, &PreviewFeed::frameShown, this, &MainWindow::frameShown);
  connect(m_feed, &PreviewFeed::frameShown, m_run, &AutomationRun::frameProcessed);
  connect(m_pipeline, &Pipeline::notice, this,
          [this](const QString& m) { showMessage(tr("Note: %1").arg(m), 10000); });
  connect(m_pipeline, &Pipeline::processingFailed, this, [this](const QString& m) {
    showMessage(m, 15000);
    m_run->processingFailed(m);
  });
  connect(m_document, &FilterDocument::filterChanged, this, [this](const FilterSet& f) {
    m_pipeline->setFilter(f);
    updateTitle();
  });
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  // Words beside the icons when there is room; icons (with tooltips) on smaller screens.
  if (m_toolBar)
    m_toolBar->setToolButtonStyle(width() < 1500 ? Qt::ToolButtonIconOnly : Qt::ToolButtonTextBesideIcon);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (action(ActionId::Record)->isChecked()) action(ActionId::Record)->setChecked(false);
  // --snapshot / --stats without --frames: written when the window closes (see docs/GUI.md).
  m_run->windowClosing();
  m_session->saveLayout();
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
    editor()->files()->importFile(path);  // a filter file
  else
    openSourceSpec(path);  // an image or a video
  event->acceptProposedAction();
}

void MainWindow::setStrategy(const QString& name) {
  m_engine->setStrategy(name);
}

void MainWindow::setDevice(const QString& spec) {
  m_engine->setDevice(spec);
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
