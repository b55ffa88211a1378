// SPDX-License-Identifier: MIT
// The Chain dock's wiring: controller → PreviewChainChoice (→ Pipeline::setChain), the switch against the
// Custom OpenCL dock's, the list and switch ⇄ AppSettings, the editor's imports of chain files.
#include "chain_dock.hpp"

#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QMainWindow>
#include <QStatusBar>
#include <QTimer>

#include "app_settings.hpp"
#include "chain_controller.hpp"
#include "chain_panel.hpp"
#include "convolab/filter_chain_io.hpp"
#include "custom_step_vetting.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "editor/filter_files.hpp"
#include "preview_chain_choice.hpp"
#include "processing/pipeline.hpp"
#include "step_editing.hpp"
#include "step_thumbnails.hpp"

namespace convolab::gui {

ChainDock::ChainDock(Inputs inputs, QWidget* parent)
    : QDockWidget(tr("Chain"), parent),
      m_in(inputs),
      m_controller(new ChainController(this)),
      m_vetting(new CustomStepVetting(this)),
      m_thumbnails(new StepThumbnails(this)),
      m_thumbnailTimer(new QTimer(this)) {
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
    connect(m_in.editor->files(), &FilterFiles::chainImported, this, [this](const QString& path) {
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
  if (m_in.document) connectEditing();
  connectThumbnails();
}

void ChainDock::connectThumbnails() {
  Pipeline* pipeline = m_in.pipeline;
  m_thumbnails->setFrameProvider([pipeline]() -> PresetThumbnails::Frame {
    const ProcessedFramePtr frame = pipeline->latestFrame();
    return {frame ? frame->original : nullptr, QString()};
  });
  const auto refresh = [this] {
    if (isVisible() && m_controller->size() > 0) m_thumbnails->request(m_controller->steps());
  };
  // Live: a new frame's thumbnails every second while the dock shows; an edit's at once
  m_thumbnailTimer->setInterval(1000);
  connect(m_thumbnailTimer, &QTimer::timeout, this, refresh);
  m_thumbnailTimer->start();
  connect(m_controller, &ChainController::stepsChanged, this, refresh);
  connect(this, &QDockWidget::visibilityChanged, this, refresh);
  connect(m_thumbnails, &StepThumbnails::ready, this, [this] {
    for (int i = 0; i < m_thumbnails->count(); ++i) m_panel->setThumbnail(i, m_thumbnails->thumbnail(i));
  });
}

void ChainDock::connectEditing() {
  m_controller->setUndoStack(m_in.document->undoStack());  // Edit ▸ Undo covers the chain's edits
  m_editing = new StepEditing(m_controller, m_in.document, this);
  connect(m_panel, &ChainPanel::stepSelected, m_editing, &StepEditing::edit);
  connect(m_editing, &StepEditing::message, this, &ChainDock::message);
  connect(m_editing, &StepEditing::editedChanged, this, [this](int row, int part) {
    m_panel->selectStep(row, part);
    m_panel->showEdited(row, part);
    if (m_in.editorDock)
      m_in.editorDock->setWindowTitle(row < 0 ? tr("Filter") : tr("Filter — step %1").arg(row + 1));
  });
  connect(m_controller, &ChainController::stepsChanged, this, [this] {
    if (m_in.editorDock && m_editing->editedIndex() >= 0)  // its number follows a move
      m_in.editorDock->setWindowTitle(tr("Filter — step %1").arg(m_editing->editedIndex() + 1));
  });
  connect(m_panel, &ChainPanel::editRequested, this, [this](int row) {
    if (!m_in.editorDock || row < 0) return;
    m_editing->edit(row, m_panel->partBox()->isVisible() ? m_panel->partBox()->currentIndex() : 0);
    m_in.editorDock->show();
    m_in.editorDock->raise();
  });
  m_panel->showEdited(-1, 0);
}

ChainDock* ChainDock::install(QMainWindow* window, QDockWidget* besides, Inputs inputs) {
  auto* dock = new ChainDock(inputs, window);
  window->addDockWidget(Qt::LeftDockWidgetArea, dock);
  window->tabifyDockWidget(besides, dock);
  window->installEventFilter(dock);
  connect(dock, &ChainDock::message, window,
          [window](const QString& text) { window->statusBar()->showMessage(text, 6000); });
  return dock;
}

bool ChainDock::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Close && watched == parent() && m_editing) m_editing->edit(-1);
  return QDockWidget::eventFilter(watched, event);
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
    m_controller->setEnabled(i, false, /*undoable=*/false);  // offers the chain without it: not a user's edit
  }
  offerLive();
}

void ChainDock::restore() {
  const QString json = m_in.settings->value(AppSettings::kChainSteps).toString();
  if (!json.isEmpty()) {
    try {
      m_controller->load(parseFilterChainJson(json.toStdString(), "settings"), /*undoable=*/false);
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
