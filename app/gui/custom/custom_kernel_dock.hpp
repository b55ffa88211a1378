// SPDX-License-Identifier: MIT
// CustomKernelDock: the "Custom OpenCL" dock — the panel and its controller, wired to the pipeline (what the
// preview runs), the preview's note, the settings (code and switch survive a restart) and File ▸ Import.
#pragma once

#include <QDockWidget>

class QMainWindow;

namespace convolab::gui {

class AppSettings;
class CustomKernelController;
class CustomKernelPanel;
class FilterEditor;
class Pipeline;
class PreviewWidget;

class CustomKernelDock : public QDockWidget {
  Q_OBJECT

 public:
  struct Inputs {
    Pipeline* pipeline;
    AppSettings* settings;
    FilterEditor* editor;    ///< its imports of custom steps open here
    PreviewWidget* preview;  ///< says when the last good kernel runs instead of the newest text
  };
  CustomKernelDock(Inputs inputs, QWidget* parent);
  /// Makes the dock, tabbed with `besides` (the filter editor: it is a mode of the single filter), its
  /// messages on the window's status bar.
  static CustomKernelDock* install(QMainWindow* window, QDockWidget* besides, Inputs inputs);

  CustomKernelController* controller() const { return m_controller; }
  CustomKernelPanel* panel() const { return m_panel; }

 signals:
  void message(const QString& text);

 private:
  void restore();
  void remember();
  void showNote();

  Inputs m_in;
  CustomKernelController* m_controller;
  CustomKernelPanel* m_panel;
};

}  // namespace convolab::gui
