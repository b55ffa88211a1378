// SPDX-License-Identifier: MIT
// LabController: answers the lab's actions, creates its dock and inspector and feeds them the window's live
// state.
#include "lab_controller.hpp"

#include <QAction>
#include <QDockWidget>
#include <QScrollArea>
#include <QStatusBar>
#include <algorithm>

#include "compare_dialog.hpp"
#include "editor/filter_document.hpp"
#include "filter_analysis_panel.hpp"
#include "kernel_source_dialog.hpp"
#include "pixel_inspector.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "window/action_table.hpp"
#include "window/main_window.hpp"
#include "window/strategy_help.hpp"

namespace convolab::lab {

using gui::FilterDocument;
using gui::FrameRecord;
using gui::MainWindow;
using gui::Pipeline;
using gui::ProcessedFramePtr;

LabController::LabController(MainWindow* window) : QObject(window), m_window(window) {
  setObjectName(QStringLiteral("labController"));
  m_panel = new FilterAnalysisPanel(window);
  m_dock = new QDockWidget(tr("Analysis"), window);
  m_dock->setObjectName(QStringLiteral("analysisDock"));
  // Scrolls rather than push the window's minimum height past a 1280×720 screen (tabbed with Statistics).
  auto* scroll = new QScrollArea(m_dock);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(m_panel);
  m_dock->setWidget(scroll);
  m_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
  m_panel->setFilter(window->document()->filter());
  connect(window->document(), &FilterDocument::filterChanged, m_panel, &FilterAnalysisPanel::setFilter);

  createInspector();

  connect(window->pipeline(), &Pipeline::engineReady, this,
          [this](const QString& device, const QString& spec, const StrategyId&) {
            m_deviceSpec = spec;
            m_panel->setDevice(device);  // where FFT wins is per device
          });
  connect(window, &MainWindow::frameShown, this, &LabController::onFrame);
}

void LabController::connectActions(const gui::ActionTable& actions) {
  connect(actions[gui::ActionId::CompareStrategies], &QAction::triggered, this, [this] {
    CompareDialog* d = compareDialog();
    d->show();
    d->raise();
    d->activateWindow();
    if (d->report().rows.empty() && !d->running()) d->start();
  });
  QAction* inspect = actions[gui::ActionId::PixelInspector];
  inspect->setChecked(m_inspector != nullptr);
  connect(inspect, &QAction::toggled, this, &LabController::setInspectorEnabled);
  connect(actions[gui::ActionId::StrategyHelp], &QAction::triggered, this,
          [this] { gui::showStrategyHelp(m_window, m_window->requestedStrategy(), inputs().liveStrategy); });
  connect(actions[gui::ActionId::KernelSource], &QAction::triggered, this, [this] {
    KernelSourceDialog* d = kernelSourceDialog();
    d->show();
    d->raise();
    d->refresh();
  });
}

void LabController::createInspector() {
  MainWindow* window = m_window;
  m_inspector = new PixelInspector(
      window->preview(), [window] { return window->pipeline()->chain(); }, this);
  connect(m_inspector, &PixelInspector::status, window, [window](const QString& text) {
    if (text.isEmpty())
      window->statusBar()->clearMessage();
    else
      window->statusBar()->showMessage(text);
  });
}

void LabController::setInspectorEnabled(bool on) {
  if (on == (m_inspector != nullptr)) return;
  if (on) {
    createInspector();
    m_window->statusBar()->showMessage(
        tr("Pixel inspector on: hover the preview; hold Shift (R), Shift+Ctrl (G) or Shift+Alt (B)"), 5000);
  } else {
    delete m_inspector;  // its destructor takes its overlay and event filter away
    m_inspector = nullptr;
    m_window->preview()->update();
    m_window->statusBar()->showMessage(tr("Pixel inspector off"), 3000);
  }
}

void LabController::onFrame(const FrameRecord& record) {
  if (!record.hasTimings || record.timings.strategy.name.empty()) return;
  m_liveStrategy = record.timings.strategy;
  const auto& stages = record.timings.stages;
  m_liveFused = std::any_of(stages.begin(), stages.end(), [](const StageTiming& s) {
    return s.name == "convolve_fused";  // ChainRunner's one launch (a step's kernel is "step N: …")
  });
}

LabInputs LabController::inputs() const {
  LabInputs in;
  if (const ProcessedFramePtr frame = m_window->preview()->frame()) in.frame = frame->original;
  in.filter = m_window->document()->filter();
  in.chain = m_window->pipeline()->chain();
  in.deviceSpec = m_deviceSpec;
  in.liveChainFused = m_liveFused;
  in.liveStrategy =
      m_liveStrategy.name.empty() ? StrategyId{m_window->requestedStrategy().toStdString()} : m_liveStrategy;
  return in;
}

CompareDialog* LabController::compareDialog() {
  if (!m_compareDialog) {
    m_compareDialog = new CompareDialog([this] { return inputs(); }, m_window);
    connect(m_compareDialog, &CompareDialog::makeLiveRequested, this, &LabController::makeLive);
  }
  return m_compareDialog;
}

void LabController::makeLive(const QString& strategy, const QString& chainMode) {
  if (chainMode == QLatin1String("fused")) {  // the strategy stays: it runs a chain that does not fuse
    m_window->pipeline()->setChainFusion(ChainFusion::Fused);
    m_window->statusBar()->showMessage(tr("Live chain: fused, every step in one launch"), 5000);
    return;
  }
  m_window->setStrategy(strategy);  // the chain fusion back to Auto (Pipeline::setStrategy)
  if (chainMode == QLatin1String("steps")) {
    m_window->pipeline()->setChainFusion(ChainFusion::StepByStep);
    m_window->statusBar()->showMessage(tr("Live chain: step by step with %1").arg(strategy), 5000);
  } else {
    m_window->statusBar()->showMessage(tr("Live strategy: %1").arg(strategy), 5000);
  }
}

KernelSourceDialog* LabController::kernelSourceDialog() {
  if (!m_sourceDialog) m_sourceDialog = new KernelSourceDialog([this] { return inputs(); }, m_window);
  return m_sourceDialog;
}

}  // namespace convolab::lab
