// SPDX-License-Identifier: MIT
// ViewActions: the View menu's preview actions — Filtered / Original / Split (remembered), Fit / 100 % / Zoom
// In / Zoom Out (their check marks follow the preview's zoom), Split Vertically (remembered), Pause and Step.
#pragma once

#include <QObject>

namespace convolab::gui {

class ActionTable;
class AppSettings;
class Pipeline;
class PreviewWidget;
enum class ActionId;
enum class ViewMode;

class ViewActions : public QObject {
  Q_OBJECT

 public:
  /// Connects the actions of `actions`; `parent` owns this.
  ViewActions(const ActionTable* actions, PreviewWidget* preview, Pipeline* pipeline, AppSettings* settings,
              QObject* parent);

  /// Shows `mode`, checks its action and remembers it.
  void setViewMode(ViewMode mode);
  void setPaused(bool paused);

 private:
  static ActionId viewAction(ViewMode mode);
  void showZoom();

  const ActionTable* m_actions;
  PreviewWidget* m_preview;
  Pipeline* m_pipeline;
  AppSettings* m_settings;
};

}  // namespace convolab::gui
