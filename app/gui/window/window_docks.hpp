// SPDX-License-Identifier: MIT
// WindowDocks: the docks around the main window's preview — the filter editor (with the Custom OpenCL and
// Chain docks tabbed behind it), the statistics, the strategy lab's analysis and the camera controls — and
// the list of those View ▸ shows and the session saves with the layout.
#pragma once

#include <QObject>
#include <vector>

class QDockWidget;

namespace convolab::lab {
class LabController;
}

namespace convolab::gui {

class AppSettings;
class CameraControlsDock;
class FilterDocument;
class FilterEditor;
class MainWindow;
class Pipeline;
class PresetLibrary;
class PreviewWidget;
class SourceController;
class StatsCollector;
class StatsFeed;
class StatsPanel;

class WindowDocks : public QObject {
  Q_OBJECT

 public:
  /// What the docks show and feed; all owned by the window.
  struct Parts {
    MainWindow* window;
    FilterDocument* document;
    PresetLibrary* presets;
    Pipeline* pipeline;
    StatsCollector* stats;
    AppSettings* settings;
    PreviewWidget* preview;
    SourceController* sources;
  };

  /// Makes the docks and adds them to `parts.window`, which owns them and this.
  explicit WindowDocks(const Parts& parts);

  FilterEditor* editor() const { return m_editor; }
  StatsPanel* statsPanel() const { return m_statsPanel; }
  StatsFeed* statsFeed() const { return m_statsFeed; }
  lab::LabController* lab() const { return m_lab; }
  CameraControlsDock* cameraControls() const { return m_cameraControls; }
  /// The docks with a View ▸ toggle, in the menu's order: filter, Custom OpenCL, Chain, statistics, analysis.
  const std::vector<QDockWidget*>& listed() const { return m_listed; }

 private:
  QDockWidget* addEditorDock(const Parts& parts);
  QDockWidget* addStatsDock(const Parts& parts);

  FilterEditor* m_editor = nullptr;
  StatsPanel* m_statsPanel = nullptr;
  StatsFeed* m_statsFeed = nullptr;
  lab::LabController* m_lab = nullptr;
  CameraControlsDock* m_cameraControls = nullptr;  // View ▸ Camera Controls
  std::vector<QDockWidget*> m_listed;
};

}  // namespace convolab::gui
