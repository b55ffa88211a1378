// SPDX-License-Identifier: MIT
// ChainPanel: the Chain dock's widgets — the switch, the list of steps (check box, kind and name), the
// buttons and keys that edit it, and the file dialogs. Every decision is the controller's.
#pragma once

#include <QWidget>
#include <functional>

#include "convolab/filter.hpp"

class QCheckBox;
class QLabel;
class QListWidget;
class QMenu;
class QPushButton;

namespace convolab::gui {

class ChainController;

class ChainPanel : public QWidget {
  Q_OBJECT

 public:
  /// `editorFilter` gives the matrix filter being edited ("Add the editor's filter").
  ChainPanel(ChainController* controller, std::function<FilterSet()> editorFilter, QWidget* parent);

  QCheckBox* onSwitch() const { return m_on; }
  QListWidget* list() const { return m_list; }
  QMenu* presetsMenu() const { return m_presets; }
  QString statusText() const;

  /// The editor's filter as a new last step.
  void addEditorFilter();
  /// Moves the selected step by `delta` places, keeping it selected.
  void moveSelected(int delta);
  void removeSelected();

 signals:
  void message(const QString& text);

 private:
  QWidget* buildButtons();
  void fillPresets();
  void rebuildList();
  void showCount();
  /// A refusal (the chain is full, a bad file) goes to the status line and the window's status bar.
  void report(const QString& why);
  void openWithDialog();
  void saveWithDialog();

  ChainController* m_controller;
  std::function<FilterSet()> m_editorFilter;
  QCheckBox* m_on;
  QListWidget* m_list;
  QLabel* m_status;
  QMenu* m_presets;
  QPushButton* m_add;
  QString m_lastDir;
  bool m_rebuilding = false;
};

}  // namespace convolab::gui
