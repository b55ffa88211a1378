// SPDX-License-Identifier: MIT
// WindowSession: the main window's session in the settings. At start it restores the filter (and the baseline
// its "modified" star is measured from), link, bypass, view, engine, source, geometry and dock layout, and
// says once which settings a failed validation reset; afterwards it saves the layout as it changes (resize,
// move, docks, split) and the filter, baseline and export folder with each change.
#pragma once

#include <QObject>
#include <QTimer>
#include <functional>
#include <vector>

#include "command_line.hpp"

class QDockWidget;
class QMainWindow;

namespace convolab::capture {
struct CameraMode;
}

namespace convolab::gui {

class ActionTable;
class AppSettings;
class AutomationRun;
class EngineSelector;
class FilterDocument;
class FilterEditor;
class Pipeline;
class PresetLibrary;
class PreviewWidget;
enum class ViewMode;

class WindowSession : public QObject {
  Q_OBJECT

 public:
  /// What the session restores and follows; all owned by the window.
  struct Parts {
    QMainWindow* window;
    LaunchOptions options;
    AppSettings* settings;
    const PresetLibrary* presets;
    FilterDocument* document;
    FilterEditor* editor;
    Pipeline* pipeline;
    PreviewWidget* preview;
    EngineSelector* engine;
    AutomationRun* run;
    const ActionTable* actions;
    std::vector<QDockWidget*> docks;  ///< their moves and visibility are saved with the layout
    std::function<void(ViewMode)> setViewMode;
    std::function<bool(const QString&, const capture::CameraMode&)> openSource;
    std::function<void(const QString&, int)> showMessage;
  };

  /// `parts.window` owns the session.
  explicit WindowSession(Parts parts);

  /// Restores the session (the window's title is the caller's to update afterwards). An automated run
  /// (--frames, --script) makes the settings read-only first: it leaves the user's remembered ones alone.
  void restore();
  /// Geometry, dock state and split position into the settings now (also 800 ms after each change).
  void saveLayout();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void reportResetSettings();
  /// The remembered filter (or --filter, or on the first start one whose effect shows at once); true on the
  /// first start.
  bool restoreFilter();
  void restoreControls(bool firstStart);
  void restoreGeometry();
  void saveBaseline();

  Parts m_parts;
  QTimer m_layoutTimer;
};

}  // namespace convolab::gui
