// SPDX-License-Identifier: MIT
// Installing the step docks in a fixed order: the Custom OpenCL dock restores first, so a chain remembered as
// on wins over it at start-up as it would have when switched on last.
#include "step_docks.hpp"

#include <QMainWindow>

#include "chain_dock.hpp"
#include "custom/custom_kernel_dock.hpp"

namespace convolab::gui {

StepDocks installStepDocks(QMainWindow* window, QDockWidget* editorDock, Pipeline* pipeline,
                           AppSettings* settings, FilterEditor* editor, PreviewWidget* preview,
                           FilterDocument* document) {
  StepDocks docks{};
  docks.custom = CustomKernelDock::install(window, editorDock, {pipeline, settings, editor, preview});
  docks.chain = ChainDock::install(window, editorDock, {pipeline, settings, editor, document, editorDock});
  editorDock->raise();
  return docks;
}

}  // namespace convolab::gui
