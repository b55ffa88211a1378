// SPDX-License-Identifier: MIT
// The Custom OpenCL dock's wiring: controller → PreviewChainChoice (→ Pipeline::setChain), engineReady → the
// trials' device, the newest frame's size → the trials' size, the draft ⇄ AppSettings.
#include "custom_kernel_dock.hpp"

#include <QMainWindow>
#include <QStatusBar>

#include "app_settings.hpp"
#include "chain/preview_chain_choice.hpp"
#include "convolab/filter_chain_io.hpp"
#include "custom_examples.hpp"
#include "custom_kernel_controller.hpp"
#include "custom_kernel_panel.hpp"
#include "editor/filter_editor.hpp"
#include "editor/filter_files.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"

namespace convolab::gui {

CustomKernelDock::CustomKernelDock(Inputs inputs, QWidget* parent)
    : QDockWidget(tr("Custom OpenCL"), parent),
      m_in(inputs),
      m_controller(new CustomKernelController(this)),
      m_panel(nullptr) {
  setObjectName(QStringLiteral("customDock"));
  setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
              QDockWidget::DockWidgetClosable);
  Pipeline* pipeline = m_in.pipeline;
  m_controller->setFrameSizeProvider([pipeline] {
    const ProcessedFramePtr frame = pipeline->latestFrame();
    return frame ? QSize(frame->record.width, frame->record.height) : QSize();
  });
  connect(
      pipeline, &Pipeline::engineReady, m_controller,
      [this](const QString&, const QString& spec, const StrategyId&) { m_controller->setDeviceSpec(spec); });
  using Owner = PreviewChainChoice::Owner;
  PreviewChainChoice* choice = PreviewChainChoice::of(pipeline);
  connect(m_controller, &CustomKernelController::liveChainChanged, choice,
          [choice](const std::optional<FilterChain>& chain) { choice->offer(Owner::CustomKernel, chain); });
  // The Chain dock's switch and this one exclude each other: the last switched on wins.
  connect(m_controller, &CustomKernelController::onChanged, choice, [choice](bool on) {
    if (on) choice->announceOn(Owner::CustomKernel);
  });
  connect(choice, &PreviewChainChoice::switchedOn, this, [this](Owner owner) {
    if (owner == Owner::CustomKernel || !m_controller->isOn()) return;
    m_controller->setOn(false);
    emit message(tr("Custom OpenCL switched off: the chain runs instead"));
  });
  m_panel = new CustomKernelPanel(m_controller, this);
  setWidget(m_panel);
  connect(m_panel, &CustomKernelPanel::message, this, &CustomKernelDock::message);
  connect(m_controller, &CustomKernelController::stateChanged, this, &CustomKernelDock::showNote);
  if (m_in.editor)
    connect(m_in.editor->files(), &FilterFiles::customStepImported, this, [this](const QString& path) {
      show();
      raise();
      if (const QString why = m_panel->openFile(path); !why.isEmpty()) emit message(why);
    });
  restore();
  connect(m_controller, &CustomKernelController::draftChanged, this, &CustomKernelDock::remember);
}

CustomKernelDock* CustomKernelDock::install(QMainWindow* window, QDockWidget* besides, Inputs inputs) {
  auto* dock = new CustomKernelDock(inputs, window);
  window->addDockWidget(Qt::LeftDockWidgetArea, dock);
  window->tabifyDockWidget(besides, dock);
  besides->raise();
  connect(dock, &CustomKernelDock::message, window,
          [window](const QString& text) { window->statusBar()->showMessage(text, 6000); });
  return dock;
}

void CustomKernelDock::restore() {
  const QString json = m_in.settings->value(AppSettings::kCustomStep).toString();
  if (!json.isEmpty()) {
    try {
      const FilterChain chain = parseFilterChainJson(json.toStdString(), "settings");
      if (const auto step = firstCustomStep(chain)) {
        if (!chain.name().empty()) m_panel->setDraftName(QString::fromStdString(chain.name()));
        m_controller->load(*step);  // tried before it runs, as any other version
      }
    } catch (const std::exception&) {
      // AppSettings validated it; a parser that changed since is no reason to stop the app
    }
  }
  m_controller->setOn(m_in.settings->value(AppSettings::kCustomOn, false).toBool());
}

void CustomKernelDock::remember() {
  m_in.settings->set(AppSettings::kCustomOn, m_controller->isOn());
  if (m_controller->code().trimmed().isEmpty()) return m_in.settings->remove(AppSettings::kCustomStep);
  try {
    const FilterChain chain =
        FilterChain::make({m_controller->draftStep()}, m_panel->draftName().toStdString());
    m_in.settings->set(AppSettings::kCustomStep, QString::fromStdString(toFilterChainJson(chain)));
  } catch (const std::exception&) {
    // Not a valid step yet (a parameter being fixed): the last valid draft stays remembered
  }
}

void CustomKernelDock::showNote() {
  if (!m_in.preview) return;
  const CustomKernelState state = m_controller->state();
  const bool wrong = state == CustomKernelState::BuildFailed || state == CustomKernelState::Refused ||
                     state == CustomKernelState::Invalid;
  QString note;
  if (m_controller->isOn() && wrong)
    note = m_controller->liveStep()
               ? tr("Custom OpenCL: the last good kernel runs — the newest text has a problem")
               : tr("Custom OpenCL: not running — the matrix filter is shown");
  m_in.preview->setNote(note);
}

}  // namespace convolab::gui
