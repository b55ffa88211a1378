// SPDX-License-Identifier: MIT
// Installing the step docks in a fixed order: the Custom OpenCL dock restores first, so a chain remembered as
// on wins over it at start-up as it would have when switched on last.
#include "step_docks.hpp"

#include <QCoreApplication>
#include <QMainWindow>

#include "chain_dock.hpp"
#include "custom/custom_kernel_dock.hpp"
#include "editor/filter_document.hpp"
#include "processing/pipeline.hpp"

namespace convolab::gui {

StepDocks installStepDocks(QMainWindow* window, QDockWidget* editorDock, Pipeline* pipeline,
                           AppSettings* settings, FilterEditor* editor, PreviewWidget* preview) {
  auto* document = window->findChild<FilterDocument*>(QString(), Qt::FindDirectChildrenOnly);
  StepDocks docks{};
  docks.custom = CustomKernelDock::install(window, editorDock, {pipeline, settings, editor, preview});
  docks.chain = ChainDock::install(window, editorDock, {pipeline, settings, editor, document, editorDock});
  editorDock->raise();
  return docks;
}

}  // namespace convolab::gui

namespace convolab::gui {

FilterChain filterForVideoExport(const Pipeline& pipeline, const std::function<void(const QString&)>& tell) {
  FilterChain chain = pipeline.chain();
  if (!chain.singleFilter())
    tell(QCoreApplication::translate("ChainDock",
                                     "Exporting the chain as the preview runs it: %1 of %2 steps on")
             .arg(chain.enabledSteps().size())
             .arg(chain.size()));
  return chain;
}

}  // namespace convolab::gui
