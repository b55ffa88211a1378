// SPDX-License-Identifier: MIT
// The docks beside the filter editor that can replace what the preview runs: Custom OpenCL and Chain, tabbed
// with the editor, their switches excluding each other (PreviewChainChoice).
#pragma once

class QDockWidget;
class QMainWindow;

namespace convolab::gui {

class AppSettings;
class FilterDocument;
class FilterEditor;
class Pipeline;
class PreviewWidget;

struct StepDocks {
  QDockWidget* custom;  ///< a CustomKernelDock
  QDockWidget* chain;   ///< a ChainDock
};

/// Makes both docks, tabbed behind `editorDock` (which stays in front); the Chain dock's selected step is
/// edited in `document` (the editor's).
StepDocks installStepDocks(QMainWindow* window, QDockWidget* editorDock, Pipeline* pipeline,
                           AppSettings* settings, FilterEditor* editor, PreviewWidget* preview,
                           FilterDocument* document);

}  // namespace convolab::gui
