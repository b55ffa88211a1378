// SPDX-License-Identifier: MIT
// SourceController: the main window's input — opening a camera, file, pattern or the sample (off the GUI
// thread where it takes long), the Camera / Camera Mode / Open Recent menus, the source's state in the
// preview and the status bar, and the seek bar of video files. It asks a source what it can do (its
// SourceTraits, its capture status), never what kind it is, so a new kind of source needs no change here.
#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <memory>

#include "capture/camera_list.hpp"
#include "capture/capture_thread.hpp"
#include "processing/processed_frame.hpp"

class QAction;
class QLabel;
class QMenu;
class QToolBar;
class QWidget;

namespace convolab::gui {

class ActionTable;
class AppSettings;
class AutomationRun;
class Pipeline;
class PreviewWidget;
class RecentSourcesMenu;
class SeekBar;
class SourceOpener;

/// Names shown in the title and status bar are cut in the middle to this many characters (a
/// multi-megabyte name in a hand-edited settings file once broke the X11 connection through the title).
QString elidedName(const QString& text, int length = 80);
/// The camera mode remembered as "spec|fourcc|width|height|fps" for `spec`; none when it names another
/// camera.
capture::CameraMode cameraModeFromKey(const QString& key, const QString& spec);

class SourceController : public QObject {
  Q_OBJECT

 public:
  /// What the controller works with; all outlive it except `window`, its parent.
  struct Parts {
    QWidget* window;  ///< parent of the dialogs, menus and widgets made here
    Pipeline* pipeline;
    PreviewWidget* preview;
    AppSettings* settings;
    AutomationRun* run;                          ///< an automated run ends when its source fails
    std::function<QString()> requestedStrategy;  ///< "auto" says it is timing strategies while it prepares
  };

  explicit SourceController(Parts parts);
  /// A source still opening finishes on its own thread, unseen.
  ~SourceController() override;

  /// Opens a source by spec (see --source). Files and patterns open off the GUI thread while the preview
  /// says "Loading …"; the working source stays until the new one has opened, and stays when it fails.
  /// False when the spec cannot even be built (then the reason is shown at once).
  bool open(const QString& spec, const capture::CameraMode& mode = {});
  void openImageDialog();
  void openVideoDialog();
  /// File ▸ Image Size Limit…: asks for the largest image to open, in megapixels.
  void askImageSizeLimit();
  /// The pipeline's capture status: preview placeholder, status label, step action, seek bar.
  void onCaptureStatus(const capture::CaptureStatus& status);
  /// Wires Open Image…, Open Video…, Test Pattern, Sample and Image Size Limit; Step is enabled while the
  /// source can step (cameras always can: the next frame).
  void connectActions(const ActionTable& actions);
  /// The toolbar's Source drop-down: the cameras, an image, a video, the test pattern, the sample.
  void addSourceButton(QToolBar* bar, const ActionTable& actions);

  QMenu* cameraMenu() const { return m_cameraMenu; }
  QMenu* cameraModeMenu() const { return m_cameraModeMenu; }
  RecentSourcesMenu* recentMenu() const { return m_recentMenu; }
  QLabel* statusLabel() const { return m_label; }
  SeekBar* seekBar() const { return m_seekBar; }

  /// The current source's spec (a camera by its stable id), its capture status, and whether a new source
  /// is loading (the old one's frames are not shown meanwhile).
  QString spec() const { return m_spec; }
  const capture::CaptureStatus& status() const { return m_status; }
  /// What the current source said it can do when it was taken.
  const capture::SourceTraits& traits() const { return m_traits; }
  bool loading() const { return m_loading; }
  /// A worker thread is still opening a source (possibly one no longer wanted).
  bool openerBusy() const;

 signals:
  /// For the status bar.
  void message(const QString& text, int ms);
  /// The source's description changed (the window title shows it).
  void sourceChanged();

 private:
  void start(std::unique_ptr<capture::FrameSource> source, const capture::SourceTraits& traits,
             const QString& spec, const capture::CameraMode& mode);
  void failed(const QString& name, const QString& error);
  void populateCameraMenu();
  void populateCameraModeMenu();
  QString openDialog(const QString& title, const QString& filter, const QString& defaultDir);

  Parts m_parts;
  SourceOpener* m_opener;
  QMenu* m_cameraMenu;
  QMenu* m_cameraModeMenu;
  RecentSourcesMenu* m_recentMenu;
  QLabel* m_label;
  SeekBar* m_seekBar;
  QAction* m_step = nullptr;

  QString m_spec;
  capture::CameraMode m_mode;
  capture::SourceTraits m_traits;  // of the current source, read when it was taken
  capture::CaptureStatus m_status;
  ProcessedFramePtr m_frameBeforeLoading;  // shown again when the new source fails to open
  bool m_loading = false;                  // a source is opening: frames of the old one are not shown
  bool m_working = false;                  // the current source has delivered (Running or Disconnected)
};

}  // namespace convolab::gui
