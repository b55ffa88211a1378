// SPDX-License-Identifier: MIT
// View ▸ Filtered / Original / Split, the zoom, Split Vertically, Pause and Step, wired to the preview.
#include "window/view_actions.hpp"

#include <QAction>

#include "app_settings.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "window/action_table.hpp"

namespace convolab::gui {

ViewActions::ViewActions(const ActionTable* actions, PreviewWidget* preview, Pipeline* pipeline,
                         AppSettings* settings, QObject* parent)
    : QObject(parent), m_actions(actions), m_preview(preview), m_pipeline(pipeline), m_settings(settings) {
  using Id = ActionId;
  const ActionTable& a = *actions;
  for (const ViewMode mode : {ViewMode::Filtered, ViewMode::Original, ViewMode::Split})
    connect(a[viewAction(mode)], &QAction::triggered, this, [this, mode] { setViewMode(mode); });
  // Fit or 100 % checked; at another zoom neither (the preview shows it). A second click keeps the check.
  connect(a[Id::Fit], &QAction::triggered, preview, [this] { m_preview->setFitToWindow(true), showZoom(); });
  connect(a[Id::ActualSize], &QAction::triggered, preview, [this] { m_preview->setZoom(1.0), showZoom(); });
  connect(a[Id::ZoomIn], &QAction::triggered, preview, [this] { m_preview->zoomIn(); });
  connect(a[Id::ZoomOut], &QAction::triggered, preview, [this] { m_preview->zoomOut(); });
  connect(preview, &PreviewWidget::zoomChanged, this, &ViewActions::showZoom);
  connect(a[Id::SplitVertical], &QAction::toggled, this, [this](bool on) {
    m_preview->setSplitVertical(on);
    m_settings->set(AppSettings::kSplitVertical, on);
  });
  a[Id::SplitVertical]->setChecked(settings->value(AppSettings::kSplitVertical, false).toBool());
  connect(a[Id::Pause], &QAction::toggled, this, &ViewActions::setPaused);
  connect(a[Id::Step], &QAction::triggered, pipeline, &Pipeline::step);
}

ActionId ViewActions::viewAction(ViewMode mode) {
  return mode == ViewMode::Original ? ActionId::ViewOriginal
         : mode == ViewMode::Split  ? ActionId::ViewSplit
                                    : ActionId::ViewFiltered;
}

void ViewActions::showZoom() {
  (*m_actions)[ActionId::Fit]->setChecked(m_preview->fitToWindow());
  (*m_actions)[ActionId::ActualSize]->setChecked(!m_preview->fitToWindow() &&
                                                 m_preview->view().zoom() == 1.0);
}

void ViewActions::setViewMode(ViewMode mode) {
  m_preview->setViewMode(mode);
  (*m_actions)[viewAction(mode)]->setChecked(true);
  m_settings->set(AppSettings::kViewMode, static_cast<int>(mode));
}

void ViewActions::setPaused(bool paused) {
  m_pipeline->setPaused(paused);
  m_preview->setPaused(paused);
}

}  // namespace convolab::gui
