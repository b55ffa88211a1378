// SPDX-License-Identifier: MIT
// MainWindow: preview in the middle, filter editor and statistics docked beside it, menus, toolbar, status
// bar. It makes the parts and connects them; the docks (WindowDocks), the session (WindowSession), the
// preview's feed (PreviewFeed) and View actions (ViewActions) are classes of their own.
#pragma once

#include <QMainWindow>
#include <memory>

#include "app_settings.hpp"
#include "automation/automation_run.hpp"
#include "capture/camera_list.hpp"
#include "capture/capture_thread.hpp"
#include "command_line.hpp"
#include "editor/preset_library.hpp"
#include "processing/processed_frame.hpp"
#include "stats/stats_collector.hpp"
#include "window/action_table.hpp"
#include "window/window_docks.hpp"

class QAction;
class QLabel;
class QToolBar;

namespace convolab::lab {
class LabController;
}

namespace convolab::gui {

class CameraControlsDock;
class EditTracker;
class EngineSelector;
class FilterDocument;
class FilterEditor;
class FrameRateLimiter;
class PhotoTimer;
class Pipeline;
class PreviewFeed;
class PreviewWidget;
class SaveDialogs;
class SourceController;
class StatsPanel;
class ViewActions;
class WindowSession;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(LaunchOptions options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  // For tests and automation.
  Pipeline* pipeline() const { return m_pipeline; }
  FilterDocument* document() const { return m_document; }
  FilterEditor* editor() const { return m_docks->editor(); }
  PreviewWidget* preview() const { return m_preview; }
  StatsPanel* statsPanel() const { return m_docks->statsPanel(); }
  CameraControlsDock* cameraControls() const { return m_docks->cameraControls(); }
  PhotoTimer* photoTimer() const { return m_photoTimer; }
  EditTracker* edits() const { return m_edits; }
  lab::LabController* lab() const { return m_docks->lab(); }
  const StatsCollector& stats() const { return m_stats; }
  QAction* action(ActionId id) const { return (*m_actions)[id]; }
  QString currentSourceSpec() const;
  QString requestedStrategy() const;
  QString deviceLabel() const;
  /// Exit code after a --frames run (0 ok, 3 bad input: the source did not open or an output could not be
  /// written, 4 no frame could be processed).
  int exitCode() const { return m_run->exitCode(); }
  /// An automated run has ended (its outputs written or its failure reported); the app is quitting.
  bool runFinished() const { return m_run->finished(); }
  /// A source is being opened off the GUI thread (the preview says "Loading …").
  bool isLoadingSource() const;
  /// A worker thread is still opening a source (possibly one no longer wanted).
  bool openerBusy() const;
  const AppSettings& settings() const { return m_settings; }

  /// Opens a source by spec (see --source). Files and patterns open off the GUI thread while the preview
  /// says "Loading …"; the working source stays until the new one has opened, and stays when it fails.
  /// False when the spec cannot even be built (then the reason is shown at once).
  bool openSourceSpec(const QString& spec, const capture::CameraMode& mode = {});
  /// Writes --snapshot / --stats now (on exit of a run without --frames); false when one failed.
  bool writeRunOutputs();
  /// Saves the newest filtered frame as a timestamped PNG in `dir` (default ~/Pictures/ConvoLab); returns
  /// its path, or an empty string (with a status message) when there is nothing to save or it failed.
  QString saveFrameNow(const QString& dir = {});
  void setStrategy(const QString& name);
  void setDevice(const QString& spec);

 signals:
  /// A frame was processed and handed to the preview (tests wait on this).
  void frameShown(const convolab::gui::FrameRecord& record);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void buildOutputs(const LaunchOptions& options);
  void connectActions();
  void fillSlot(ActionSlot slot, QWidget* container);
  void buildToolBars();
  void buildStatusBar(QLabel* frameLabel);
  void connectPipeline();

  void showAbout();
  void updateTitle();
  void showMessage(const QString& message, int ms = 6000);

  AppSettings m_settings;
  PresetLibrary m_presets;
  FilterDocument* m_document;
  Pipeline* m_pipeline;
  StatsCollector m_stats;
  AutomationRun* m_run;  // --frames / --snapshot / --stats

  PreviewWidget* m_preview = nullptr;
  SourceController* m_sources = nullptr;
  WindowDocks* m_docks = nullptr;
  EngineSelector* m_engine = nullptr;
  ActionTable* m_actions = nullptr;
  SaveDialogs* m_saves = nullptr;
  PhotoTimer* m_photoTimer = nullptr;      // File ▸ Save Frame after Countdown
  FrameRateLimiter* m_fpsLimit = nullptr;  // Processing ▸ Limit Frame Rate
  ViewActions* m_view = nullptr;           // View ▸ Filtered … Step
  PreviewFeed* m_feed = nullptr;           // pipeline → preview
  WindowSession* m_session = nullptr;      // restored at start, saved as it changes
  EditTracker* m_edits = nullptr;          // edit → screen, from the end of the session's restore
  QToolBar* m_toolBar = nullptr;
};

}  // namespace convolab::gui
