// The main window: builds the UI, restores the session, routes pipeline events to the preview and stats.
#include "main_window.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QUrl>
#include <cstdio>

#include "action_table.hpp"
#include "automation_run.hpp"
#include "capture/camera_source.hpp"
#include "channel_grid.hpp"
#include "convolab/error.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/registry.hpp"
#include "cv/image_codec.hpp"
#include "cv/image_header.hpp"
#include "filter_document.hpp"
#include "filter_editor.hpp"
#include "frame_saver.hpp"
#include "lab/lab_controller.hpp"
#include "pipeline.hpp"
#include "preview_widget.hpp"
#include "recent_sources_menu.hpp"
#include "resources.hpp"
#include "seek_bar.hpp"
#include "source_factory.hpp"
#include "source_opener.hpp"
#include "stats_panel.hpp"
#include "stats_report.hpp"
#include "video_export_dialog.hpp"
#include "window_chrome.hpp"

namespace convolab::gui {

namespace {

const char* const kImageFilter =
    "Images (*.png *.jpg *.jpeg *.bmp *.tif *.tiff *.webp *.ppm *.pgm *.pnm);;All files (*)";
const char* const kVideoFilter =
    "Videos (*.mp4 *.mkv *.avi *.mov *.webm *.m4v *.mpg *.mpeg *.wmv);;All files (*)";

QString cameraModeKey(const QString& spec, const capture::CameraMode& m) {
  return QStringLiteral("%1|%2|%3|%4|%5")
      .arg(spec, QString::fromStdString(m.fourcc))
      .arg(m.width)
      .arg(m.height)
      .arg(m.fps);
}

capture::CameraMode cameraModeFromKey(const QString& key, const QString& spec) {
  const QStringList parts = key.split(QLatin1Char('|'));
  if (parts.size() != 5 || parts[0] != spec) return {};
  return {parts[1].toStdString(), parts[2].toInt(), parts[3].toInt(), parts[4].toDouble()};
}

/// Names shown in the title and status bar are cut to this many characters (a multi-megabyte name in a
/// hand-edited settings file once broke the X11 connection through the window title).
constexpr int kShownNameLength = 80;

QString elided(const QString& text, int length = kShownNameLength) {
  if (text.size() <= length) return text;
  return text.left(length / 2 - 1) + QStringLiteral("…") + text.right(length / 2 - 1);
}

QImage copyToQImage(const Image& image) {
  return QImage(image.pixels.data(), image.width, image.height, static_cast<qsizetype>(image.stride),
                QImage::Format_RGB888)
      .copy();
}

}  // namespace

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
        return AutomationRun::Facts{m_captureStatus.fps, m_deviceLabel, m_strategy};
      },
      this);
  m_preview = new PreviewWidget(this);
  setCentralWidget(m_preview);
  m_opener = new SourceOpener(this);
  buildDocks();
  m_actions = new ActionTable(this, m_document->undoStack());
  connectActions();
  m_actions->buildMenus(menuBar(), [this](ActionSlot slot, QWidget* menu) { fillSlot(slot, menu); });
  buildToolBars();
  buildStatusBar();
  connectPipeline();
  restoreSession();

  m_statsTimer.setInterval(1000);  // figures: once a second, readable
  connect(&m_statsTimer, &QTimer::timeout, this, &MainWindow::refreshStats);
  m_statsTimer.start();
  m_chartTimer.setInterval(250);  // chart: smooth enough, cheap
  connect(&m_chartTimer, &QTimer::timeout, this, &MainWindow::refreshChart);
  m_chartTimer.start();
  m_layoutTimer.setSingleShot(true);
  m_layoutTimer.setInterval(800);
  connect(&m_layoutTimer, &QTimer::timeout, this, &MainWindow::saveLayout);
}

MainWindow::~MainWindow() {
  // ~QWidget hides the docks and deletes children after our members are gone: cut every connection to
  // this window first, and stop the threads while everything they report to still exists.
  for (QObject* child : findChildren<QObject*>()) QObject::disconnect(child, nullptr, this, nullptr);
  delete m_opener;  // a source still opening finishes on its own thread, unseen
  m_opener = nullptr;
  delete m_pipeline;
  m_pipeline = nullptr;
}

bool MainWindow::openerBusy() const {
  return m_opener && m_opener->busy();
}

// ---------------------------------------------------------------------------------------------- building

void MainWindow::buildDocks() {
  m_editor = new FilterEditor(m_document, &m_presets, this);
  auto* editorDock = new QDockWidget(tr("Filter"), this);
  editorDock->setObjectName(QStringLiteral("filterDock"));
  editorDock->setWidget(m_editor);
  editorDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                          QDockWidget::DockWidgetClosable);
  addDockWidget(Qt::LeftDockWidgetArea, editorDock);
  connect(m_editor, &FilterEditor::status, this, [this](const QString& m) { showMessage(m); });

  m_statsPanel = new StatsPanel(this);
  auto* statsDock = new QDockWidget(tr("Statistics"), this);
  statsDock->setObjectName(QStringLiteral("statsDock"));
  statsDock->setWidget(scrollableDockContent(m_statsPanel));  // a 720-pixel screen scrolls the stats
  statsDock->widget()->setMinimumWidth(360);
  addDockWidget(Qt::RightDockWidgetArea, statsDock);
  connect(m_statsPanel, &StatsPanel::resetRequested, this, &MainWindow::resetStats);
  connect(m_statsPanel, &StatsPanel::copyRequested, this, &MainWindow::copyStats);
  m_lab = new lab::LabController(this);  // the strategy lab: compare, kernel source, analysis, inspector
  addDockWidget(Qt::RightDockWidgetArea, m_lab->analysisDock());
  tabifyDockWidget(statsDock, m_lab->analysisDock());
  statsDock->raise();
  m_docks = {editorDock, statsDock, m_lab->analysisDock()};
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
  onTriggered(Id::OpenImage, this, &MainWindow::openImageDialog);
  onTriggered(Id::OpenVideo, this, &MainWindow::openVideoDialog);
  onTriggered(Id::TestPattern, this, [this] { openSourceSpec(QStringLiteral("pattern")); });
  onTriggered(Id::Sample, this, [this] { openSourceSpec(kSampleSpec); });
  onTriggered(Id::ImageSizeLimit, this, &MainWindow::setImageSizeLimit);
  onTriggered(Id::ImportFilter, m_editor, &FilterEditor::importWithDialog);
  onTriggered(Id::ExportFilter, m_editor, &FilterEditor::exportWithDialog);
  onTriggered(Id::SaveFrame, this, [this] { saveFrameNow(); });
  onTriggered(Id::SaveFrameAs, this, &MainWindow::saveFrameAs);
  onTriggered(Id::CopyFrame, this, &MainWindow::copyFrame);
  connect(a[Id::Record], &QAction::toggled, this, &MainWindow::toggleRecording);
  onTriggered(Id::ExportVideo, this, [this] {
    exportFilteredVideo(this, m_document->filter(), m_deviceSpec, m_strategy,
                        [this](const QString& message) { showMessage(message, 10000); });
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
  onTriggered(Id::Fit, m_preview, [this] { m_preview->setFitToWindow(true); });
  onTriggered(Id::ActualSize, m_preview, [this] { m_preview->setFitToWindow(false); });
  connect(m_preview, &PreviewWidget::fitToWindowChanged, this, [this](bool on) {
    action(on ? ActionId::Fit : ActionId::ActualSize)->setChecked(true);
    m_settings.set(AppSettings::kFit, on);
  });
  connect(a[Id::Pause], &QAction::toggled, this, &MainWindow::setPaused);
  onTriggered(Id::Step, m_pipeline, &Pipeline::step);
  installFullScreenToggle(this, a[Id::FullScreen]);
  onTriggered(Id::ResetStats, this, &MainWindow::resetStats);
  onTriggered(Id::Shortcuts, this, [this] { m_actions->showShortcuts(this); });
  onTriggered(Id::About, this, &MainWindow::showAbout);
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
      m_cameraMenu = menu->addMenu(tr("&Camera"));
      connect(m_cameraMenu, &QMenu::aboutToShow, this, &MainWindow::populateCameraMenu);
      break;
    case ActionSlot::CameraModeMenu:
      m_cameraModeMenu = menu->addMenu(tr("Camera &Mode"));
      connect(m_cameraModeMenu, &QMenu::aboutToShow, this, &MainWindow::populateCameraModeMenu);
      break;
    case ActionSlot::RecentSources: {
      auto* recent = new RecentSourcesMenu(&m_settings, this);
      connect(recent, &RecentSourcesMenu::openRequested, this,
              [this](const QString& spec) { openSourceSpec(spec); });
      menu->addMenu(recent);
      break;
    }
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
    case ActionSlot::KernelSource:
      menu->addAction(m_lab->kernelSourceAction());
      break;
    case ActionSlot::StrategyMenu:
      m_strategyMenu = menu->addMenu(tr("&Strategy"));
      m_strategyGroup = new QActionGroup(this);
      for (const auto& entry : strategyRegistry()) {
        const QString name = QString::fromLatin1(entry.name.data(), static_cast<int>(entry.name.size()));
        QAction* a = m_strategyMenu->addAction(name);
        a->setCheckable(true);
        a->setData(name);
        a->setToolTip(
            QString::fromLatin1(entry.description.data(), static_cast<int>(entry.description.size())));
        a->setActionGroup(m_strategyGroup);
        connect(a, &QAction::triggered, this, [this, name] { setStrategy(name); });
      }
      m_strategyMenu->setToolTipsVisible(true);
      break;
    case ActionSlot::DeviceMenu:
      m_deviceMenu = menu->addMenu(tr("&Device"));
      m_deviceGroup = new QActionGroup(this);
      m_deviceMenu->addAction(tr("(listing devices…)"))->setEnabled(false);
      break;
    case ActionSlot::Compare:
      menu->addAction(m_lab->compareAction());
      break;
    case ActionSlot::SourceButton:
      addSourceButton(qobject_cast<QToolBar*>(container));
      break;
    case ActionSlot::EngineBoxes:
      addEngineBoxes(qobject_cast<QToolBar*>(container));
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
  m_seekBar = new SeekBar(m_pipeline, this);
  m_seekToolBar = new QToolBar(tr("Seek"), this);
  m_seekToolBar->setObjectName(QStringLiteral("seekToolBar"));
  m_seekToolBar->setMovable(false);
  m_seekToolBar->addWidget(m_seekBar);
  addToolBar(Qt::BottomToolBarArea, m_seekToolBar);
  m_seekToolBar->hide();
  connect(m_seekBar, &SeekBar::availabilityChanged, m_seekToolBar, &QWidget::setVisible);
}

void MainWindow::addSourceButton(QToolBar* bar) {
  auto* sourceMenu = new QMenu(tr("Source"), this);
  sourceMenu->addMenu(m_cameraMenu);
  for (ActionId id : {ActionId::OpenImage, ActionId::OpenVideo, ActionId::TestPattern, ActionId::Sample})
    sourceMenu->addAction(action(id));
  QAction* sourceAction = sourceMenu->menuAction();
  sourceAction->setText(tr("Source"));
  sourceAction->setIcon(QIcon(QStringLiteral(":/icons/source.svg")));
  sourceAction->setToolTip(tr("Choose the input: camera, image, video or test pattern"));
  bar->addAction(sourceAction);
  if (auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(sourceAction)))
    button->setPopupMode(QToolButton::InstantPopup);
}

void MainWindow::addEngineBoxes(QToolBar* bar) {
  auto* spacer = new QWidget(bar);
  spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  bar->addWidget(spacer);
  bar->addWidget(new QLabel(tr("Strategy"), bar));
  m_strategyBox = new QComboBox(bar);
  m_strategyBox->setObjectName(QStringLiteral("strategyBox"));
  for (const auto& entry : strategyRegistry()) {
    const QString name = QString::fromLatin1(entry.name.data(), static_cast<int>(entry.name.size()));
    m_strategyBox->addItem(name, name);
    m_strategyBox->setItemData(
        m_strategyBox->count() - 1,
        QString::fromLatin1(entry.description.data(), static_cast<int>(entry.description.size())),
        Qt::ToolTipRole);
  }
  m_strategyBox->setToolTip(
      tr("How the convolution runs on the device; auto measures and picks the fastest"));
  connect(m_strategyBox, &QComboBox::activated, this,
          [this](int i) { setStrategy(m_strategyBox->itemData(i).toString()); });
  bar->addWidget(m_strategyBox);
  bar->addWidget(new QLabel(tr("Device"), bar));
  m_deviceBox = new QComboBox(bar);
  m_deviceBox->setObjectName(QStringLiteral("deviceBox"));
  m_deviceBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_deviceBox->setMaximumWidth(260);
  m_deviceBox->setToolTip(tr("The OpenCL device that runs the filter"));
  connect(m_deviceBox, &QComboBox::activated, this,
          [this](int i) { setDevice(m_deviceBox->itemData(i).toString()); });
  bar->addWidget(m_deviceBox);
}
void MainWindow::buildStatusBar() {
  m_sourceLabel = new QLabel(this);
  m_frameLabel = new QLabel(this);
  m_frameLabel->setFont(QFont(QStringLiteral("DejaVu Sans Mono"), 9));
  m_engineLabel = new QLabel(this);
  m_recordLabel = new QLabel(this);
  m_recordLabel->setStyleSheet(QStringLiteral("color:#ff5f56; font-weight:600;"));
  m_recordLabel->hide();
  statusBar()->addPermanentWidget(m_recordLabel);
  statusBar()->addPermanentWidget(m_sourceLabel);
  statusBar()->addPermanentWidget(m_frameLabel);
  statusBar()->addPermanentWidget(m_engineLabel);
  statusBar()->setSizeGripEnabled(false);
}

void MainWindow::connectPipeline() {
  connect(m_pipeline, &Pipeline::frameProcessed, this, &MainWindow::onFrameProcessed);
  connect(m_pipeline, &Pipeline::captureStatusChanged, this, &MainWindow::onCaptureStatus);
  connect(m_pipeline, &Pipeline::engineReady, this, &MainWindow::onEngineReady);
  connect(m_pipeline, &Pipeline::devicesListed, this, &MainWindow::onDevicesListed);
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
  connect(m_preview, &PreviewWidget::framePainted, this,
          [this](auto when, auto captured) { m_stats.addDisplayed(when, captured); });
  connect(m_pipeline, &Pipeline::filterPublished, m_preview, &PreviewWidget::setCurrentRevision);
  connect(m_pipeline, &Pipeline::processingStateChanged, m_preview, &PreviewWidget::setPreparing);
  connect(m_pipeline, &Pipeline::processingStateChanged, m_statsPanel, &StatsPanel::setProcessingState);
  connect(m_preview, &PreviewWidget::splitPositionChanged, this, &MainWindow::scheduleLayoutSave);
  connect(m_preview, &PreviewWidget::openImageRequested, this, &MainWindow::openImageDialog);
  connect(m_preview, &PreviewWidget::openVideoRequested, this, &MainWindow::openVideoDialog);
  connect(m_preview, &PreviewWidget::testPatternRequested, this,
          [this] { openSourceSpec(QStringLiteral("pattern")); });
}

// ---------------------------------------------------------------------------------------------- session

void MainWindow::restoreSession() {
  // An automated run (--frames) leaves the user's remembered settings alone.
  if (m_run->counting()) m_settings.setReadOnly(true);
  // Settings that failed validation on load fall back to their defaults; say so once.
  const QStringList notes = m_settings.notes();
  for (const QString& note : notes) std::fprintf(stderr, "convolab: %s\n", qPrintable(note));
  if (!notes.isEmpty())
    QTimer::singleShot(0, this, [this, notes] {
      showMessage(
          notes.size() == 1
              ? notes.first()
              : tr("%1 (and %2 more settings reset to defaults)").arg(notes.first()).arg(notes.size() - 1),
          20000);
    });

  FilterSet filter = m_document->filter();
  const QString json = m_settings.value(AppSettings::kFilter).toString();
  if (!json.isEmpty()) {
    try {
      filter = parseFilterJson(json.toStdString(), "settings");
    } catch (const std::exception& e) {
      m_editor->showError(tr("The filter of the last session could not be restored: %1").arg(e.what()));
    }
  }
  m_document->restore(filter);
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
    std::fprintf(stderr, "convolab: %s\n", qPrintable(why));
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
  const bool fit = m_settings.value(AppSettings::kFit, true).toBool();
  m_preview->setFitToWindow(fit);
  action(fit ? ActionId::Fit : ActionId::ActualSize)->setChecked(true);
  m_preview->setSplitPosition(m_settings.value(AppSettings::kSplit, 0.5).toDouble());

  m_strategy = !m_options.strategy.isEmpty()
                   ? m_options.strategy
                   : m_settings.value(AppSettings::kStrategy, QStringLiteral("auto")).toString();
  m_deviceSpec =
      !m_options.device.isEmpty() ? m_options.device : m_settings.value(AppSettings::kDevice).toString();
  for (QAction* a : m_strategyGroup->actions()) a->setChecked(a->data().toString() == m_strategy);
  m_strategyBox->setCurrentIndex(m_strategyBox->findData(m_strategy));
  m_statsPanel->setEngine(tr("starting…"), m_strategy);
  m_engineLabel->setText(tr("OpenCL: starting…"));
  m_pipeline->startEngine(m_deviceSpec, m_strategy);

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

void MainWindow::scheduleLayoutSave() {
  m_layoutTimer.start();
}

void MainWindow::saveLayout() {
  m_settings.set(AppSettings::kGeometry, saveGeometry());
  m_settings.set(AppSettings::kState, saveState());
  m_settings.set(AppSettings::kSplit, m_preview->splitPosition());
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
  const FilterSet& f = m_document->filter();
  QString title = QStringLiteral("ConvoLab");
  if (!f.name().empty()) title += QStringLiteral(" — ") + elided(QString::fromStdString(f.name()));
  if (!m_captureStatus.description.empty())
    title += QStringLiteral(" — ") + elided(QString::fromStdString(m_captureStatus.description));
  setWindowTitle(title);
}

void MainWindow::showMessage(const QString& message, int ms) {
  statusBar()->showMessage(message, ms);
}

// ---------------------------------------------------------------------------------------------- sources

bool MainWindow::openSourceSpec(const QString& spec, const capture::CameraMode& mode) {
  QString resolved = spec.trimmed();
  if (resolved == kAutoSpec)
    resolved = resolveAutoSpec();  // make run's default: webcam if present, else sample
  std::unique_ptr<capture::FrameSource> source;
  try {
    source = makeSource(resolved, mode, m_settings.maxPixels());
  } catch (const std::exception& e) {
    m_opener->cancel();  // the newest request failed: an older one still loading is not wanted either
    sourceFailed(resolved, elided(resolved), QString::fromUtf8(e.what()));
    return false;
  }
  const QString name = elided(QString::fromStdString(source->description()));
  // The loading state, at once: the old picture goes (kept aside in case the new source fails).
  if (!m_sourceLoading) m_frameBeforeLoading = m_preview->frame();
  m_sourceLoading = true;
  m_preview->setFrame(nullptr);
  m_preview->hidePlaceholder();
  m_preview->setDisconnected({});
  m_preview->setBanner({});
  QString loading = tr("Loading %1…").arg(name);
  if (source->kind() == capture::SourceKind::ImageFile) {
    // A big still takes seconds to decode: say how big, from its header.
    if (const auto header = opencv::readImageHeader(std::filesystem::path(resolved.toStdString())))
      loading =
          tr("Loading %1 — %2…")
              .arg(name, QString::fromStdString(opencv::describeImageSize(header->width, header->height)));
  }
  m_preview->setBusyMessage(loading);
  m_sourceLabel->setText(loading);
  if (source->kind() == capture::SourceKind::Camera) {
    // Cameras open on the capture thread, which keeps retrying an absent one (and the old source must
    // release a device the new one may share).
    m_opener->cancel();
    startSource(std::move(source), resolved, mode);
    return true;
  }
  m_opener->open(std::move(source), [this, resolved, name, mode](std::unique_ptr<capture::FrameSource> opened,
                                                                 const QString& error) {
    if (opened)
      startSource(std::move(opened), resolved, mode);
    else
      sourceFailed(resolved, name, error);
  });
  return true;
}

void MainWindow::startSource(std::unique_ptr<capture::FrameSource> source, const QString& spec,
                             const capture::CameraMode& mode) {
  QString remembered = spec;
  if (source->kind() == capture::SourceKind::Camera) {
    // Remember a camera by its stable id (/dev/v4l/by-id/…), not by an index that may change.
    const auto& camera = static_cast<const capture::CameraSource&>(*source).camera();
    if (!camera.stableId.empty()) remembered = QString::fromStdString(camera.stableId);
  }
  const bool isFile =
      source->kind() == capture::SourceKind::ImageFile || source->kind() == capture::SourceKind::VideoFile;
  m_captureStatus = {};
  m_captureStatus.description = source->description();
  m_captureStatus.kind = source->kind();
  m_sourceSpec = remembered;
  m_cameraMode = mode;
  m_sourceWorking = false;
  m_sourceLoading = false;
  m_frameBeforeLoading.reset();
  m_pipeline->openSource(std::move(source));
  // Only sources that opened are remembered (a camera is remembered when it delivers: onCaptureStatus).
  if (m_captureStatus.kind != capture::SourceKind::Camera) {
    m_settings.set(AppSettings::kSource, remembered);
    if (isFile && remembered != kSampleSpec)
      m_settings.addRecentSource(QFileInfo(remembered).absoluteFilePath());
  }
  m_sourceLabel->setText(tr("Opening %1…").arg(elided(QString::fromStdString(m_captureStatus.description))));
  updateTitle();
}

void MainWindow::sourceFailed(const QString& spec, const QString& name, const QString& error) {
  if (m_run->automated()) {
    m_run->fail(error);  // an automated run ends: exit 3 with the message
    return;
  }
  const bool keepWorking = m_pipeline->hasSource() && m_sourceWorking;
  m_sourceLoading = false;
  if (keepWorking) {
    // The working source stays; say why the new one did not open.
    if (!m_frameBeforeLoading) m_frameBeforeLoading = m_pipeline->latestFrame();
    if (m_frameBeforeLoading) m_preview->setFrame(m_frameBeforeLoading);
    m_frameBeforeLoading.reset();
    m_preview->setBusyMessage({});
    m_sourceLabel->setText(
        QStringLiteral("%1 · %2").arg(elided(QString::fromStdString(m_captureStatus.description)),
                                      QString::fromStdString(m_captureStatus.mode)));
    showMessage(tr("Could not open %1: %2 — still showing %3")
                    .arg(name, error, elided(QString::fromStdString(m_captureStatus.description))),
                15000);
    return;
  }
  m_frameBeforeLoading.reset();
  m_pipeline->closeSource();
  m_sourceWorking = false;
  m_captureStatus = {};
  m_preview->setFrame(nullptr);
  m_preview->setBusyMessage({});
  m_preview->showPlaceholder(tr("Cannot open this source"), error);
  m_sourceLabel->setText(tr("No source"));
  m_sourceLabel->setToolTip(error);
  showMessage(tr("Could not open %1: %2").arg(name, error), 15000);
  Q_UNUSED(spec);
  updateTitle();
}

void MainWindow::setImageSizeLimit() {
  bool ok = false;
  const int mp = QInputDialog::getInt(
      this, tr("Image size limit"),
      tr("Largest image or video frame to open, in megapixels.\nLarger images are refused from their header, "
         "before decoding (a 30000×30000 image needs 2.7 GB as RGB)."),
      static_cast<int>(m_settings.maxPixels() / 1'000'000),
      static_cast<int>(AppSettings::kMinMaxPixels / 1'000'000),
      static_cast<int>(AppSettings::kMaxMaxPixels / 1'000'000), 10, &ok);
  if (!ok) return;
  m_settings.set(AppSettings::kMaxPixels, QVariant::fromValue<qint64>(std::int64_t{mp} * 1'000'000));
  showMessage(tr("Images up to %1 MP will be opened").arg(mp), 4000);
}

void MainWindow::onCaptureStatus(const capture::CaptureStatus& s) {
  m_captureStatus = s;
  const QString desc = elided(QString::fromStdString(s.description));
  const QString kind = QString::fromLatin1(capture::sourceKindName(s.kind));
  action(ActionId::Step)->setEnabled(s.canStep || s.kind == capture::SourceKind::Camera);
  switch (s.state) {
    case capture::CaptureState::Opening:
      if (!m_preview->frame()) m_preview->setBusyMessage(tr("Opening %1…").arg(desc));
      m_sourceLabel->setText(tr("Opening %1…").arg(desc));
      break;
    case capture::CaptureState::Running:
      if (!m_sourceWorking && s.kind == capture::SourceKind::Camera)
        m_settings.set(AppSettings::kSource, m_sourceSpec);
      m_sourceWorking = true;
      m_run->sourceRunning();
      m_seekBar->setFps(s.fps);
      m_preview->hidePlaceholder();
      m_preview->setDisconnected({});
      // Until the first frame comes back the engine is building kernels (auto also measures strategies).
      m_preview->setBusyMessage(
          m_preview->frame() ? QString()
          : m_strategy == QLatin1String("auto")
              ? tr("Preparing OpenCL — auto is timing the strategies (once per size and filter)…")
              : tr("Preparing OpenCL…"));
      m_sourceLabel->setText(QStringLiteral("%1 · %2").arg(desc, QString::fromStdString(s.mode)));
      m_sourceLabel->setToolTip(tr("%1: %2\nDelivered: %3").arg(kind, desc, QString::fromStdString(s.mode)));
      break;
    case capture::CaptureState::Failed: {
      m_sourceWorking = false;
      if (m_run->automated()) {
        m_run->fail(QString::fromStdString(s.message));
        return;
      }
      m_preview->setFrame(nullptr);
      QString title, detail = QString::fromStdString(s.message);
      if (s.kind == capture::SourceKind::Camera) {
        title =
            detail.startsWith(QLatin1String("no camera")) ? tr("No camera found") : tr("Camera unavailable");
        detail += tr("\nConvoLab keeps looking for it. Meanwhile, open a file or use the test pattern:");
      } else {
        title = tr("Cannot open %1").arg(desc);
      }
      m_preview->showPlaceholder(title, detail);
      m_sourceLabel->setText(title);
      break;
    }
    case capture::CaptureState::Disconnected: {
      const QString message = tr("%1 disconnected — waiting…").arg(kind);
      m_run->sourceDisconnected(desc, QString::fromStdString(s.message));
      if (m_preview->frame()) {
        m_preview->setDisconnected(message);  // the last frame stays, dimmed
      } else {
        m_preview->showPlaceholder(message, QString::fromStdString(s.message));
      }
      m_sourceLabel->setText(message);
      m_sourceLabel->setToolTip(QString::fromStdString(s.message));
      break;
    }
  }
  updateTitle();
}

void MainWindow::populateCameraMenu() {
  m_cameraMenu->clear();
  const auto cameras = capture::listCameras();
  if (cameras.empty()) m_cameraMenu->addAction(tr("No camera found"))->setEnabled(false);
  for (const auto& cam : cameras) {
    QAction* a = m_cameraMenu->addAction(QString::fromStdString(cam.label()));
    const QString spec = QString::fromStdString(cam.stableId);
    a->setCheckable(true);
    a->setChecked(m_sourceSpec == spec || m_sourceSpec == QString::fromStdString(cam.devicePath));
    a->setToolTip(spec);
    connect(a, &QAction::triggered, this, [this, spec] { openSourceSpec(spec); });
  }
}

void MainWindow::populateCameraModeMenu() {
  m_cameraModeMenu->clear();
  if (m_captureStatus.kind != capture::SourceKind::Camera || m_sourceSpec.isEmpty()) {
    m_cameraModeMenu->addAction(tr("(the source is not a camera)"))->setEnabled(false);
    return;
  }
  const std::string path = capture::resolveCameraPath(m_sourceSpec.toStdString());
  const auto modes = capture::listCameraModes(path.empty() ? m_sourceSpec.toStdString() : path);
  if (modes.empty()) m_cameraModeMenu->addAction(tr("(the driver lists no modes)"))->setEnabled(false);
  auto* group = new QActionGroup(m_cameraModeMenu);
  for (const auto& mode : modes) {
    QAction* a = m_cameraModeMenu->addAction(QString::fromStdString(mode.label()));
    a->setCheckable(true);
    a->setActionGroup(group);
    a->setChecked(mode == m_cameraMode);
    connect(a, &QAction::triggered, this, [this, mode] {
      m_settings.set(AppSettings::kCameraMode, cameraModeKey(m_sourceSpec, mode));
      openSourceSpec(m_sourceSpec, mode);
    });
  }
}

void MainWindow::openImageDialog() {
  const QString dir = m_settings
                          .value(AppSettings::kLastOpenDir,
                                 QStandardPaths::writableLocation(QStandardPaths::PicturesLocation))
                          .toString();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open image"), dir, tr(kImageFilter));
  if (path.isEmpty()) return;
  m_settings.set(AppSettings::kLastOpenDir, QFileInfo(path).absolutePath());
  openSourceSpec(path);
}

void MainWindow::openVideoDialog() {
  const QString dir =
      m_settings
          .value(AppSettings::kLastOpenDir, QStandardPaths::writableLocation(QStandardPaths::MoviesLocation))
          .toString();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open video"), dir, tr(kVideoFilter));
  if (path.isEmpty()) return;
  m_settings.set(AppSettings::kLastOpenDir, QFileInfo(path).absolutePath());
  openSourceSpec(path);
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

// ---------------------------------------------------------------------------------------------- engine

void MainWindow::setStrategy(const QString& name) {
  m_strategy = name;
  m_pipeline->setStrategy(name);
  m_settings.set(AppSettings::kStrategy, name);
  for (QAction* a : m_strategyGroup->actions()) a->setChecked(a->data().toString() == name);
  m_strategyBox->setCurrentIndex(m_strategyBox->findData(name));
  m_statsPanel->setEngine(m_deviceLabel, name);
  showMessage(tr("Strategy: %1").arg(name), 3000);
}

void MainWindow::setDevice(const QString& spec) {
  m_pipeline->setDevice(spec);
  m_settings.set(AppSettings::kDevice, spec);
  showMessage(tr("Switching OpenCL device…"), 3000);
}

void MainWindow::onEngineReady(const QString& deviceLabel, const QString& deviceSpec,
                               const QString& strategy) {
  m_deviceLabel = deviceLabel;
  m_deviceSpec = deviceSpec;
  m_strategy = strategy;
  m_engineLabel->setText(QStringLiteral("%1 · %2").arg(deviceLabel, strategy));
  m_statsPanel->setEngine(deviceLabel, strategy);
  for (QAction* a : m_deviceGroup->actions()) a->setChecked(a->data().toString() == deviceSpec);
  m_deviceBox->setCurrentIndex(m_deviceBox->findData(deviceSpec));
  for (QAction* a : m_strategyGroup->actions()) a->setChecked(a->data().toString() == strategy);
  m_strategyBox->setCurrentIndex(m_strategyBox->findData(strategy));
}

void MainWindow::onDevicesListed(const QStringList& labels, const QStringList& specs) {
  m_deviceSpecs = specs;
  m_deviceMenu->clear();
  m_deviceBox->clear();
  for (QAction* a : m_deviceGroup->actions()) m_deviceGroup->removeAction(a);
  if (specs.isEmpty()) m_deviceMenu->addAction(tr("(no OpenCL device)"))->setEnabled(false);
  for (int i = 0; i < specs.size(); ++i) {
    const QString spec = specs[i];
    QAction* a = m_deviceMenu->addAction(QStringLiteral("%1   [%2]").arg(labels[i], spec));
    a->setCheckable(true);
    a->setData(spec);
    a->setActionGroup(m_deviceGroup);
    a->setChecked(spec == m_deviceSpec);
    connect(a, &QAction::triggered, this, [this, spec] { setDevice(spec); });
    m_deviceBox->addItem(labels[i].section(QStringLiteral(" — "), 0, 0), spec);
    m_deviceBox->setItemData(i, labels[i], Qt::ToolTipRole);
  }
  m_deviceBox->setCurrentIndex(m_deviceBox->findData(m_deviceSpec));
}

// ---------------------------------------------------------------------------------------------- frames

void MainWindow::onFrameProcessed(const FrameRecord& record) {
  m_stats.addProcessed(record);
  // While a new source loads, the old one's frames are not shown (the preview says "Loading …").
  if (auto frame = m_pipeline->latestFrame(); frame && frame != m_preview->frame() && !m_sourceLoading) {
    if (!m_preview->frame()) m_preview->setBusyMessage({});
    m_preview->setFrame(frame);
  }
  m_preview->setBanner(record.error.isEmpty()
                           ? QString()
                           : tr("OpenCL processing failed — showing the original. %1").arg(record.error));
  m_frameLabel->setText(
      QStringLiteral("%1×%2  #%3").arg(record.width).arg(record.height).arg(record.sourceIndex));
  emit frameShown(record);
  m_run->frameProcessed(record);
}

bool MainWindow::writeRunOutputs() {
  return m_run->writeOutputs();
}

QString MainWindow::saveFrameNow(const QString& dir) {
  const auto frame = m_pipeline->latestFrame();
  if (!frame) {
    showMessage(tr("Nothing to save yet: no frame has been processed"));
    return {};
  }
  const QString folder = dir.isEmpty() ? defaultPicturesDir() : dir;
  const QString path = timestampedPath(folder, QStringLiteral("convolab"), QStringLiteral("png"));
  try {
    saveFrame(path, *frame->filtered, false);
    showMessage(tr("Saved %1×%2 frame to %3")
                    .arg(frame->filtered->width)
                    .arg(frame->filtered->height)
                    .arg(QDir::toNativeSeparators(path)),
                8000);
    return path;
  } catch (const std::exception& e) {
    showMessage(tr("Could not save the frame: %1").arg(e.what()), 10000);
    return {};
  }
}

void MainWindow::saveFrameAs() {
  const auto frame =
      m_pipeline->latestFrame();  // what is on screen now, even if the dialog stays open a while
  if (!frame) {
    showMessage(tr("Nothing to save yet: no frame has been processed"));
    return;
  }
  const QString dir = m_settings.value(AppSettings::kLastSaveDir, defaultPicturesDir()).toString();
  QDir().mkpath(dir);
  QString selected;
  QString path = QFileDialog::getSaveFileName(
      this, tr("Save frame as"), timestampedPath(dir, QStringLiteral("convolab"), QStringLiteral("png")),
      tr("PNG image (*.png);;JPEG image (*.jpg *.jpeg);;TIFF image (*.tif *.tiff);;BMP image (*.bmp)"),
      &selected);
  if (path.isEmpty()) return;
  // The dialog asked about replacing the name it returned; a name we complete is checked here.
  if (QFileInfo(path).suffix().isEmpty()) {
    path += selected.startsWith(QLatin1String("JPEG"))   ? QStringLiteral(".jpg")
            : selected.startsWith(QLatin1String("TIFF")) ? QStringLiteral(".tiff")
            : selected.startsWith(QLatin1String("BMP"))  ? QStringLiteral(".bmp")
                                                         : QStringLiteral(".png");
    if (QFileInfo::exists(path) &&
        QMessageBox::question(this, tr("Replace file?"), tr("%1 already exists. Replace it?").arg(path)) !=
            QMessageBox::Yes)
      return;
  }
  int quality = m_settings.value(AppSettings::kJpegQuality, 92).toInt();
  if (opencv::imageFormatForPath(path.toStdString()) == opencv::ImageFormat::Jpeg) {
    bool ok = false;
    quality = QInputDialog::getInt(this, tr("JPEG quality"), tr("Quality (0–100):"), quality, 0, 100, 1, &ok);
    if (!ok) return;
    m_settings.set(AppSettings::kJpegQuality, quality);
  }
  m_settings.set(AppSettings::kLastSaveDir, QFileInfo(path).absolutePath());
  try {
    saveFrame(path, *frame->filtered, true, quality);
    showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 8000);
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Could not save the frame"), QString::fromUtf8(e.what()));
  }
}

void MainWindow::copyFrame() {
  const auto frame = m_pipeline->latestFrame();
  if (!frame) return;
  QApplication::clipboard()->setImage(copyToQImage(*frame->filtered));
  showMessage(tr("Filtered frame copied to the clipboard"), 3000);
}

void MainWindow::toggleRecording(bool on) {
  if (!on) {
    if (!m_pipeline->isRecording()) return;
    const QString path = QString::fromStdString(m_pipeline->recorder()->path().string());
    const auto written = m_pipeline->recorder()->written();
    m_pipeline->stopRecording();
    m_recordLabel->hide();
    showMessage(tr("Saved video (%1 frames) to %2").arg(written).arg(QDir::toNativeSeparators(path)), 10000);
    return;
  }
  const auto frame = m_pipeline->latestFrame();
  if (!frame) {
    showMessage(tr("Nothing to record yet: no frame has been processed"));
    QSignalBlocker block(action(ActionId::Record));
    action(ActionId::Record)->setChecked(false);
    return;
  }
  const QString dir = defaultVideosDir();
  QDir().mkpath(dir);
  const QString path = timestampedPath(dir, QStringLiteral("convolab"), QStringLiteral("avi"));
  try {
    m_pipeline->startRecording(path.toStdString(), frame->filtered->width, frame->filtered->height,
                               m_captureStatus.fps > 0 ? m_captureStatus.fps : 30.0);
    m_recordClock.start();
    m_recordLabel->setText(tr("● REC 0:00"));
    m_recordLabel->show();
    showMessage(tr("Recording to %1").arg(QDir::toNativeSeparators(path)), 5000);
  } catch (const std::exception& e) {
    QSignalBlocker block(action(ActionId::Record));
    action(ActionId::Record)->setChecked(false);
    showMessage(tr("Cannot record: %1").arg(e.what()), 10000);
  }
}

// ---------------------------------------------------------------------------------------------- stats

void MainWindow::refreshStats() {
  const auto now = std::chrono::steady_clock::now();
  m_stats.sampleSource(now, m_pipeline->framesDelivered(), m_pipeline->framesDropped(), m_captureStatus.fps);
  m_statsPanel->showStats(m_stats.snapshot(now));
  if (m_pipeline->isRecording()) {
    const qint64 s = m_recordClock.elapsed() / 1000;
    m_recordLabel->setText(tr("● REC %1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0')));
  }
}

void MainWindow::refreshChart() {
  const auto now = std::chrono::steady_clock::now();
  m_stats.sampleSource(now, m_pipeline->framesDelivered(), m_pipeline->framesDropped(), m_captureStatus.fps);
  if (!m_statsPanel->isVisible()) return;
  const double budget = m_captureStatus.fps > 0 ? 1000.0 / m_captureStatus.fps : 0;
  m_statsPanel->showHistory(m_stats.history(), m_stats.secondsSinceStart(now), budget);
}

void MainWindow::resetStats() {
  m_stats.reset();
  m_pipeline->resetCounters();
  m_statsPanel->clearChart();
  refreshStats();
  showMessage(tr("Statistics reset"), 2000);
}

void MainWindow::copyStats() {
  QApplication::clipboard()->setText(m_statsPanel->text());
  showMessage(tr("Statistics copied as text"), 2500);
}

// ---------------------------------------------------------------------------------------------- help

void MainWindow::showAbout() {
  QMessageBox::about(this, tr("About ConvoLab"),
                     tr("<h3>ConvoLab %1</h3><p>Per-channel convolution filters, live, computed with "
                        "OpenCL.</p><p>Device: %2<br>Strategy: %3</p>")
                         .arg(QCoreApplication::applicationVersion(), m_deviceLabel, m_strategy));
}

}  // namespace convolab::gui
