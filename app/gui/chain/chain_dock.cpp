// SPDX-License-Identifier: MIT
// The Chain dock's wiring: controller → PreviewChainChoice (→ Pipeline::setChain), the switch against the
// Custom OpenCL dock's, the list and switch ⇄ AppSettings, the editor's imports of chain files.
#include "chain_dock.hpp"

#include <QDir>
#include <QMainWindow>
#include <QStatusBar>

#include "app_settings.hpp"
#include "chain_controller.hpp"
#include "chain_panel.hpp"
#include "convolab/filter_chain_io.hpp"
#include "custom_step_vetting.hpp"
#include "filter_editor.hpp"
#include "pipeline.hpp"
#include "preview_chain_choice.hpp"

namespace convolab::gui {

ChainDock::ChainDock(Inputs inputs, QWidget* parent)
    : QDockWidget(tr("Chain"), parent),
      m_in(inputs),
      m_controller(new ChainController(this)),
      m_vetting(new CustomStepVetting(this)) {
  setObjectName(QStringLiteral("chainDock"));
  setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
              QDockWidget::DockWidgetClosable);
  Pipeline* pipeline = m_in.pipeline;
  m_panel = new ChainPanel(
      m_controller, [pipeline] { return pipeline->filter(); }, this);
  setWidget(m_panel);
  connect(m_panel, &ChainPanel::message, this, &ChainDock::message);

  using Owner = PreviewChainChoice::Owner;
  PreviewChainChoice* choice = PreviewChainChoice::of(pipeline);
  connect(m_controller, &ChainController::liveChainChanged, this, &ChainDock::offerLive);
  connect(m_vetting, &CustomStepVetting::judged, this, &ChainDock::judged);
  connect(pipeline, &Pipeline::engineReady, m_vetting,
          [this](const QString&, const QString& spec, const StrategyId&) { m_vetting->setDeviceSpec(spec); });
  m_vetting->setFrameSizeProvider([pipeline] {
    const ProcessedFramePtr frame = pipeline->latestFrame();
    return frame ? QSize(frame->record.width, frame->record.height) : QSize();
  });
  connect(m_controller, &ChainController::onChanged, this, [this, choice](bool on) {
    if (on) choice->announceOn(Owner::ChainList);
    emit message(on ? tr("The chain runs instead of the editor's filter")
                    : tr("The editor's filter runs again"));
  });
  connect(choice, &PreviewChainChoice::switchedOn, this, [this](Owner owner) {
    if (owner == Owner::ChainList || !m_controller->isOn()) return;
    m_controller->setOn(false);
    emit message(tr("Chain switched off: the Custom OpenCL kernel runs instead"));
  });
  if (m_in.editor)
    connect(m_in.editor, &FilterEditor::chainImported, this, [this](const QString& path) {
      show();
      raise();
      if (const QString why = m_controller->openFile(path); !why.isEmpty())
        return emit message(tr("Cannot open %1 — %2").arg(path, why));
      // Imported to be used, as an imported filter replaces the editor's: --filter chain.json runs it
      m_controller->setOn(true);
      emit message(tr("Opened %1 into the Chain dock; the chain runs").arg(QDir::toNativeSeparators(path)));
    });
  restore();
  connect(m_controller, &ChainController::stepsChanged, this, &ChainDock::remember);
  connect(m_controller, &ChainController::onChanged, this, &ChainDock::remember);
}

ChainDock* ChainDock::install(QMainWindow* window, QDockWidget* besides, Inputs inputs) {
  auto* dock = new ChainDock(inputs, window);
  window->addDockWidget(Qt::LeftDockWidgetArea, dock);
  window->tabifyDockWidget(besides, dock);
  connect(dock, &ChainDock::message, window,
          [window](const QString& text) { window->statusBar()->showMessage(text, 6000); });
  return dock;
}

void ChainDock::offerLive() {
  const std::optional<FilterChain> chain = m_controller->liveChain();
  bool waiting = false;
  if (chain)
    for (const ChainStep& step : chain->enabledSteps())
      if (!m_vetting->passed(step)) {
        m_vetting->vet(step);
        waiting = true;
      }
  // Meanwhile what ran keeps running: untried code never reaches the processing thread
  if (waiting) return emit message(tr("Trying the chain's custom OpenCL code before it runs…"));
  PreviewChainChoice::of(m_in.pipeline)->offer(PreviewChainChoice::Owner::ChainList, chain);
}

void ChainDock::judged(const ChainStep& step, bool passed, const QString& why) {
  if (passed) return offerLive();
  for (int i = 0; i < m_controller->size(); ++i) {
    const ChainStep& s = m_controller->steps()[static_cast<std::size_t>(i)];
    if (!s.enabled || !s.isCustom() || s.custom->code != step.custom->code) continue;
    emit message(tr("Step %1's custom OpenCL code was refused (%2): it is switched off").arg(i + 1).arg(why));
    m_controller->setEnabled(i, false);  // offers the chain without it
  }
  offerLive();
}

void ChainDock::restore() {
  const QString json = m_in.settings->value(AppSettings::kChainSteps).toString();
  if (!json.isEmpty()) {
    try {
      m_controller->load(parseFilterChainJson(json.toStdString(), "settings"));
    } catch (const std::exception&) {
      // AppSettings validated it; a parser that changed since is no reason to stop the app
    }
  }
  m_controller->setOn(m_in.settings->value(AppSettings::kChainOn, false).toBool());
}

void ChainDock::remember() {
  m_in.settings->set(AppSettings::kChainOn, m_controller->isOn());
  const std::optional<FilterChain> chain = m_controller->chain();
  if (!chain) return m_in.settings->remove(AppSettings::kChainSteps);
  const QString json = QString::fromStdString(toFilterChainJson(*chain));
  // A chain of large filters may pass what the settings keep: it is then not remembered, and the user told
  if (json.size() > AppSettings::kMaxFilterJson)
    return emit message(tr("This chain is too large to be remembered across restarts; save it to a file"));
  m_in.settings->set(AppSettings::kChainSteps, json);
}

}  // namespace convolab::gui
