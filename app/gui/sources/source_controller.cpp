// SPDX-License-Identifier: MIT
// The main window's input: opening sources, the camera and recent menus, the source's state on screen.
#include "sources/source_controller.hpp"

#include <QAction>
#include <QActionGroup>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QStandardPaths>
#include <QToolBar>
#include <QToolButton>

#include "app_settings.hpp"
#include "automation/automation_run.hpp"
#include "capture/source_spec.hpp"
#include "convolab/strategy_id.hpp"
#include "preview/preview_stall_watch.hpp"
#include "preview/preview_widget.hpp"
#include "preview/seek_bar.hpp"
#include "processing/pipeline.hpp"
#include "sources/recent_sources_menu.hpp"
#include "sources/source_factory.hpp"
#include "sources/source_opener.hpp"
#include "window/action_table.hpp"
#include "window/input_dialogs.hpp"

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

}  // namespace

QString elidedName(const QString& text, int length) {
  if (text.size() <= length) return text;
  return text.left(length / 2 - 1) + QStringLiteral("…") + text.right(length / 2 - 1);
}

capture::CameraMode cameraModeFromKey(const QString& key, const QString& spec) {
  const QStringList parts = key.split(QLatin1Char('|'));
  if (parts.size() != 5 || parts[0] != spec) return {};
  return {parts[1].toStdString(), parts[2].toInt(), parts[3].toInt(), parts[4].toDouble()};
}

SourceController::SourceController(Parts parts)
    : QObject(parts.window),
      m_parts(std::move(parts)),
      m_opener(new SourceOpener(this)),
      m_cameraMenu(new QMenu(tr("&Camera"), m_parts.window)),
      m_cameraModeMenu(new QMenu(tr("Camera &Mode"), m_parts.window)),
      m_recentMenu(new RecentSourcesMenu(m_parts.settings, m_parts.window)),
      m_label(new QLabel(m_parts.window)),
      m_seekBar(new SeekBar(m_parts.pipeline, m_parts.window)) {
  connect(m_cameraMenu, &QMenu::aboutToShow, this, &SourceController::populateCameraMenu);
  connect(m_cameraModeMenu, &QMenu::aboutToShow, this, &SourceController::populateCameraModeMenu);
  connect(m_recentMenu, &RecentSourcesMenu::openRequested, this, [this](const QString& spec) { open(spec); });
  PreviewWidget* preview = m_parts.preview;
  connect(preview, &PreviewWidget::openImageRequested, this, &SourceController::openImageDialog);
  connect(preview, &PreviewWidget::openVideoRequested, this, &SourceController::openVideoDialog);
  connect(preview, &PreviewWidget::testPatternRequested, this, [this] { open(QStringLiteral("pattern")); });
  connect(m_parts.pipeline, &Pipeline::captureStatusChanged, this, &SourceController::onCaptureStatus);
  // A frame that waits for the processing thread too long is marked on the preview: its picture lags.
  new PreviewStallWatch([pipeline = m_parts.pipeline] { return pipeline->frameWaitingSince(); },
                        [this] { return m_status.still; }, preview);
}

SourceController::~SourceController() {
  delete m_opener;  // a source still opening finishes on its own thread, unseen
  m_opener = nullptr;
}

void SourceController::connectActions(const ActionTable& actions) {
  connect(actions[ActionId::OpenImage], &QAction::triggered, this, &SourceController::openImageDialog);
  connect(actions[ActionId::OpenVideo], &QAction::triggered, this, &SourceController::openVideoDialog);
  connect(actions[ActionId::TestPattern], &QAction::triggered, this,
          [this] { open(QStringLiteral("pattern")); });
  connect(actions[ActionId::Sample], &QAction::triggered, this, [this] { open(kSampleSpec); });
  connect(actions[ActionId::ImageSizeLimit], &QAction::triggered, this, &SourceController::askImageSizeLimit);
  m_step = actions[ActionId::Step];
}

void SourceController::addSourceButton(QToolBar* bar, const ActionTable& actions) {
  auto* sourceMenu = new QMenu(tr("Source"), m_parts.window);
  sourceMenu->addMenu(m_cameraMenu);
  for (ActionId id : {ActionId::OpenImage, ActionId::OpenVideo, ActionId::TestPattern, ActionId::Sample})
    sourceMenu->addAction(actions[id]);
  QAction* sourceAction = sourceMenu->menuAction();
  sourceAction->setText(tr("Source"));
  sourceAction->setIcon(QIcon(QStringLiteral(":/icons/source.svg")));
  sourceAction->setToolTip(tr("Choose the input: camera, image, video or test pattern"));
  bar->addAction(sourceAction);
  if (auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(sourceAction)))
    button->setPopupMode(QToolButton::InstantPopup);
}

bool SourceController::openerBusy() const {
  return m_opener && m_opener->busy();
}

bool SourceController::open(const QString& spec, const capture::CameraMode& mode) {
  QString resolved = spec.trimmed();
  if (resolved == kAutoSpec)
    resolved = resolveAutoSpec();  // make run's default: webcam if present, else sample
  std::unique_ptr<capture::FrameSource> source;
  try {
    source = makeSource(resolved, mode, m_parts.settings->maxPixels());
  } catch (const std::exception& e) {
    m_opener->cancel();  // the newest request failed: an older one still loading is not wanted either
    failed(elidedName(resolved), QString::fromUtf8(e.what()));
    return false;
  }
  const QString name = elidedName(QString::fromStdString(source->description()));
  const capture::SourceTraits traits = source->traits();
  PreviewWidget* preview = m_parts.preview;
  // The loading state, at once: the old picture goes (kept aside in case the new source fails).
  if (!m_loading) m_frameBeforeLoading = preview->frame();
  m_loading = true;
  preview->setFrame(nullptr);
  preview->hidePlaceholder();
  preview->setDisconnected({});
  preview->setBanner({});
  // A big still takes seconds to decode: say how big, from its header.
  const std::string detail = source->loadingDetail();
  const QString loading = detail.empty() ? tr("Loading %1…").arg(name)
                                         : tr("Loading %1 — %2…").arg(name, QString::fromStdString(detail));
  preview->setBusyMessage(loading);
  m_label->setText(loading);
  if (traits.waitsForDevice) {
    // A device opens on the capture thread, which keeps retrying an absent one (and the old source must
    // release a device the new one may share).
    m_opener->cancel();
    start(std::move(source), traits, resolved, mode);
    return true;
  }
  m_opener->open(std::move(source), [this, traits, resolved, name, mode](
                                        std::unique_ptr<capture::FrameSource> opened, const QString& error) {
    if (opened)
      start(std::move(opened), traits, resolved, mode);
    else
      failed(name, error);
  });
  return true;
}

void SourceController::start(std::unique_ptr<capture::FrameSource> source,
                             const capture::SourceTraits& traits, const QString& spec,
                             const capture::CameraMode& mode) {
  const QString remembered =
      traits.rememberedSpec.empty() ? spec : QString::fromStdString(traits.rememberedSpec);
  m_status = {};
  m_status.description = source->description();
  m_status.kindName = traits.kindName;
  m_traits = traits;
  m_spec = remembered;
  m_mode = mode;
  m_working = false;
  m_loading = false;
  m_frameBeforeLoading.reset();
  m_parts.pipeline->openSource(std::move(source));
  // Only sources that opened are remembered (a device is remembered when it delivers: onCaptureStatus).
  if (!traits.waitsForDevice) {
    m_parts.settings->set(AppSettings::kSource, remembered);
    if (traits.isFile) m_parts.settings->addRecentSource(QFileInfo(remembered).absoluteFilePath());
  }
  m_label->setText(tr("Opening %1…").arg(elidedName(QString::fromStdString(m_status.description))));
  emit sourceChanged();
}

void SourceController::failed(const QString& name, const QString& error) {
  if (m_parts.run->automated()) {
    m_parts.run->fail(error);  // an automated run ends: exit 3 with the message
    return;
  }
  PreviewWidget* preview = m_parts.preview;
  const bool keepWorking = m_parts.pipeline->hasSource() && m_working;
  m_loading = false;
  if (keepWorking) {
    // The working source stays; say why the new one did not open.
    if (!m_frameBeforeLoading) m_frameBeforeLoading = m_parts.pipeline->latestFrame();
    if (m_frameBeforeLoading) preview->setFrame(m_frameBeforeLoading);
    m_frameBeforeLoading.reset();
    preview->setBusyMessage({});
    m_label->setText(QStringLiteral("%1 · %2").arg(elidedName(QString::fromStdString(m_status.description)),
                                                   QString::fromStdString(m_status.mode)));
    emit message(tr("Could not open %1: %2 — still showing %3")
                     .arg(name, error, elidedName(QString::fromStdString(m_status.description))),
                 15000);
    return;
  }
  m_frameBeforeLoading.reset();
  m_parts.pipeline->closeSource();
  m_working = false;
  m_status = {};
  m_traits = {};
  preview->setFrame(nullptr);
  preview->setBusyMessage({});
  preview->showPlaceholder(tr("Cannot open this source"), error);
  m_label->setText(tr("No source"));
  m_label->setToolTip(error);
  emit message(tr("Could not open %1: %2").arg(name, error), 15000);
  emit sourceChanged();
}

void SourceController::onCaptureStatus(const capture::CaptureStatus& s) {
  m_status = s;
  PreviewWidget* preview = m_parts.preview;
  const QString desc = elidedName(QString::fromStdString(s.description));
  const QString kind = QString::fromStdString(s.kindName);
  if (m_step) m_step->setEnabled(s.canStep);
  switch (s.state) {
    case capture::CaptureState::Opening:
      if (!preview->frame()) preview->setBusyMessage(tr("Opening %1…").arg(desc));
      m_label->setText(tr("Opening %1…").arg(desc));
      break;
    case capture::CaptureState::Running:
      if (!m_working && m_traits.waitsForDevice) m_parts.settings->set(AppSettings::kSource, m_spec);
      m_working = true;
      m_parts.run->sourceRunning();
      preview->hidePlaceholder();
      preview->setDisconnected({});
      // Until the first frame comes back the engine is building kernels (auto also measures strategies).
      preview->setBusyMessage(
          preview->frame() ? QString()
          : m_parts.requestedStrategy() == QLatin1String(kAutoStrategy)
              ? tr("Preparing OpenCL — auto is timing the strategies (once per size and filter)…")
              : tr("Preparing OpenCL…"));
      m_label->setText(QStringLiteral("%1 · %2").arg(desc, QString::fromStdString(s.mode)));
      m_label->setToolTip(tr("%1: %2\nDelivered: %3").arg(kind, desc, QString::fromStdString(s.mode)));
      break;
    case capture::CaptureState::Failed: {
      // A file that fails after playing (its frame size changes mid-stream) says so, not "cannot open".
      const bool played = m_working;
      m_working = false;
      if (m_parts.run->automated()) {
        m_parts.run->fail(QString::fromStdString(s.message));
        return;
      }
      preview->setFrame(nullptr);
      QString title, detail = QString::fromStdString(s.message);
      if (s.retrying) {
        title = s.absent ? tr("No %1 found").arg(kind.toLower()) : tr("%1 unavailable").arg(kind);
        detail += tr("\nConvoLab keeps looking for it. Meanwhile, open a file or use the test pattern:");
      } else {
        title = played ? tr("Cannot play %1 further").arg(desc) : tr("Cannot open %1").arg(desc);
      }
      preview->showPlaceholder(title, detail);
      m_label->setText(title);
      break;
    }
    case capture::CaptureState::Disconnected: {
      const QString text = tr("%1 disconnected — waiting…").arg(kind);
      m_parts.run->sourceDisconnected(desc, QString::fromStdString(s.message));
      if (preview->frame()) {
        preview->setDisconnected(text);  // the last frame stays, dimmed
      } else {
        preview->showPlaceholder(text, QString::fromStdString(s.message));
      }
      m_label->setText(text);
      m_label->setToolTip(QString::fromStdString(s.message));
      break;
    }
  }
  emit sourceChanged();
}

void SourceController::populateCameraMenu() {
  m_cameraMenu->clear();
  const auto devices = capture::listDevices();
  if (devices.empty()) m_cameraMenu->addAction(tr("No camera found"))->setEnabled(false);
  for (const auto& device : devices) {
    QAction* a = m_cameraMenu->addAction(QString::fromStdString(device.label));
    const QString spec = QString::fromStdString(device.spec);
    a->setCheckable(true);
    a->setChecked(m_spec == spec ||
                  (!device.alias.empty() && m_spec == QString::fromStdString(device.alias)));
    a->setToolTip(spec);
    connect(a, &QAction::triggered, this, [this, spec] { open(spec); });
  }
}

void SourceController::populateCameraModeMenu() {
  m_cameraModeMenu->clear();
  if (!m_traits.listModes || m_spec.isEmpty()) {
    m_cameraModeMenu->addAction(tr("(the source is not a camera)"))->setEnabled(false);
    return;
  }
  const auto modes = m_traits.listModes();
  if (modes.empty()) m_cameraModeMenu->addAction(tr("(the driver lists no modes)"))->setEnabled(false);
  auto* group = new QActionGroup(m_cameraModeMenu);
  for (const auto& mode : modes) {
    QAction* a = m_cameraModeMenu->addAction(QString::fromStdString(mode.label()));
    a->setCheckable(true);
    a->setActionGroup(group);
    a->setChecked(mode == m_mode);
    connect(a, &QAction::triggered, this, [this, mode] {
      m_parts.settings->set(AppSettings::kCameraMode, cameraModeKey(m_spec, mode));
      open(m_spec, mode);
    });
  }
}

QString SourceController::openDialog(const QString& title, const QString& filter, const QString& defaultDir) {
  const QString dir = m_parts.settings->value(AppSettings::kLastOpenDir, defaultDir).toString();
  const QString path = QFileDialog::getOpenFileName(m_parts.window, title, dir, filter);
  if (!path.isEmpty()) m_parts.settings->set(AppSettings::kLastOpenDir, QFileInfo(path).absolutePath());
  return path;
}

void SourceController::openImageDialog() {
  const QString path = openDialog(tr("Open image"), tr(kImageFilter),
                                  QStandardPaths::writableLocation(QStandardPaths::PicturesLocation));
  if (!path.isEmpty()) open(path);
}

void SourceController::openVideoDialog() {
  const QString path = openDialog(tr("Open video"), tr(kVideoFilter),
                                  QStandardPaths::writableLocation(QStandardPaths::MoviesLocation));
  if (!path.isEmpty()) open(path);
}

void SourceController::askImageSizeLimit() {
  bool ok = false;
  const int mp = askInt(
      m_parts.window, tr("Image size limit"),
      tr("Largest image or video frame to open, in megapixels.\nLarger images are refused from their header, "
         "before decoding (a 30000×30000 image needs 2.7 GB as RGB)."),
      static_cast<int>(m_parts.settings->maxPixels() / 1'000'000),
      static_cast<int>(AppSettings::kMinMaxPixels / 1'000'000),
      static_cast<int>(AppSettings::kMaxMaxPixels / 1'000'000), 10, &ok);
  if (!ok) return;
  m_parts.settings->set(AppSettings::kMaxPixels, QVariant::fromValue<qint64>(std::int64_t{mp} * 1'000'000));
  emit message(tr("Images up to %1 MP will be opened").arg(mp), 4000);
}

}  // namespace convolab::gui
