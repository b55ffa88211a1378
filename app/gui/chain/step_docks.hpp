// SPDX-License-Identifier: MIT
// The docks beside the filter editor that can replace what the preview runs: Custom OpenCL and Chain, tabbed
// with the editor, their switches excluding each other (PreviewChainChoice).
#pragma once

#include <QString>
#include <functional>

#include "convolab/filter.hpp"

class QDockWidget;
class QMainWindow;

namespace convolab::gui {

class AppSettings;
class FilterEditor;
class Pipeline;
class PreviewWidget;

struct StepDocks {
  QDockWidget* custom;  ///< a CustomKernelDock
  QDockWidget* chain;   ///< a ChainDock
};

/// What File ▸ Export Filtered Video applies (its video job streams one filter): the running chain when it is
/// one filter step, else the editor's filter — and then `tell` says a chain cannot be exported.
FilterSet filterForVideoExport(const Pipeline& pipeline, const std::function<void(const QString&)>& tell);

/// Makes both docks, tabbed behind `editorDock` (which stays in front); the Chain dock's selected step is
/// edited in the window's FilterDocument (the editor's).
StepDocks installStepDocks(QMainWindow* window, QDockWidget* editorDock, Pipeline* pipeline,
                           AppSettings* settings, FilterEditor* editor, PreviewWidget* preview);

}  // namespace convolab::gui
