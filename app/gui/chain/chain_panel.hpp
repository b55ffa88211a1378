// SPDX-License-Identifier: MIT
// ChainPanel: the Chain dock's widgets — the switch, the list of steps (check box, kind and name), the
// buttons and keys that edit it, and the file dialogs. Every decision is the controller's.
#pragma once

#include <QWidget>
#include <functional>

#include "convolab/filter.hpp"
#include "editor/preset_thumbnails.hpp"

class QCheckBox;
class QComboBox;
class QImage;
class QLabel;
class QListWidget;
class QMenu;
class QPushButton;

namespace convolab::gui {

class ChainController;

class ChainPanel : public QWidget {
  Q_OBJECT

 public:
  /// Each step's thumbnail is as big as a preset's (StepThumbnails).
  static constexpr QSize kThumbnailSize = PresetThumbnails::kSize;
  /// `editorFilter` gives the matrix filter being edited ("Add the editor's filter").
  ChainPanel(ChainController* controller, std::function<FilterSet()> editorFilter, QWidget* parent);

  QCheckBox* onSwitch() const { return m_on; }
  QListWidget* list() const { return m_list; }
  QMenu* presetsMenu() const { return m_presets; }
  /// "Show up to here": checked, the preview ends at the selected step.
  QPushButton* upToButton() const { return m_upTo; }
  /// Which filter of a selected magnitude step the editor edits (shown only then).
  QComboBox* partBox() const { return m_part; }
  QString statusText() const;
  /// The selected step (-1: none).
  int selectedRow() const;
  /// Selects step `row` (-1: none) and, for a magnitude, its filter `part`; emits stepSelected when it
  /// changed.
  void selectStep(int row, int part = 0);
  /// The editor edits step `row` (-1: its own filter): the status line says so.
  void showEdited(int row, int part);
  /// Step `row`'s thumbnail (null: none).
  void setThumbnail(int row, const QImage& image);

  /// The editor's filter as a new last step.
  void addEditorFilter();
  /// Moves the selected step by `delta` places, keeping it selected.
  void moveSelected(int delta);
  void removeSelected();

 signals:
  void message(const QString& text);
  /// The user selected step `row` (-1: none; `part`: which filter of a magnitude).
  void stepSelected(int row, int part);
  /// A step was double-clicked: the user wants to edit it (the Filter tab comes to the front).
  void editRequested(int row);

 private:
  QWidget* buildButtons();
  void fillPresets();
  void rebuildList();
  void showCount();
  /// The list's new order after a drag: the controller moves the step.
  void dropped(int from, int to);
  void selectionMoved();
  void refreshUpTo();
  bool eventFilter(QObject* watched, QEvent* event) override;
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
  QPushButton* m_upTo;
  QComboBox* m_part;
  QLabel* m_edited;
  QString m_lastDir;
  int m_selectedId = -1;  ///< the controller's id of the selected step
  int m_selectedPart = 0;
  int m_nextPart = 0;  ///< the part selectStep asks for, taken by the next selectionMoved
  bool m_rebuilding = false;
};

}  // namespace convolab::gui
