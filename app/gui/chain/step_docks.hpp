// SPDX-License-Identifier: MIT
// The docks beside the filter editor that can replace what the preview runs: Custom OpenCL and Chain, tabbed
// with the editor, their switches excluding each other (PreviewChainChoice).
#pragma once

#include <QString>
#include <functional>

#include "convolab/filter_chain.hpp"

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

/// What File ▸ Export Filtered Video applies: what the preview runs (Pipeline::chain(): the Chain dock's
/// chain as far as "Show up to here", a Custom OpenCL step, or the editor's filter); the video job skips
/// switched-off steps as live does. For a chain that is not one filter, `tell` says how many of its steps are
/// on.
FilterChain filterForVideoExport(const Pipeline& pipeline, const std::function<void(const QString&)>& tell);

/// Makes both docks, tabbed behind `editorDock` (which stays in front); the Chain dock's selected step is
/// edited in the window's FilterDocument (the editor's).
StepDocks installStepDocks(QMainWindow* window, QDockWidget* editorDock, Pipeline* pipeline,
                           AppSettings* settings, FilterEditor* editor, PreviewWidget* preview);

}  // namespace convolab::gui
