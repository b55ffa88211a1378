// SPDX-License-Identifier: MIT
// StepEditing: the filter editor edits the chain step selected in the Chain dock. Selecting a filter step
// (or one filter of a magnitude) shows it in the editor; the editor's edits then become that step's undo
// steps (StepEditCommand, through FilterDocument's edit route) and reach the running chain at once. Ending
// the selection gives the editor its own filter back.
#pragma once

#include <QObject>
#include <array>
#include <optional>

#include "convolab/filter_chain.hpp"

class QUndoCommand;

namespace convolab::gui {

class ChainController;
class FilterDocument;
struct FilterEdit;

class StepEditing : public QObject {
  Q_OBJECT

 public:
  StepEditing(ChainController* controller, FilterDocument* document, QObject* parent = nullptr);
  ~StepEditing() override;

  /// The editor edits step `index`: its filter (`part` 0) or a magnitude's second filter (`part` 1). -1, or a
  /// step the editor cannot hold (custom OpenCL code), ends it: the editor's own filter comes back.
  void edit(int index, int part = 0);
  /// The step the editor edits (-1: its own filter) and which of its filters.
  int editedIndex() const;
  int editedPart() const { return m_bound ? m_bound->part : 0; }
  ChainController* controller() const { return m_controller; }

  /// Applied by StepEditCommand: the editor shows step `stepId`'s `part`, which becomes `step`, and the
  /// document `filter` (with `baseline`).
  void apply(int stepId, int part, const ChainStep& step, const FilterSet& filter, const FilterSet& baseline);

  /// The step's filter as the step keeps it after the editor's `edited`: the editor's 7×7 of a 3×3 step is
  /// cut back to 3×3 (the same output) unless weights were put outside it.
  static FilterSet fitted(const FilterSet& edited, int stepSize);

 signals:
  /// What the editor edits changed (`index` -1: its own filter).
  void editedChanged(int index, int part);
  /// An edit could not be made (a magnitude's other filter refused the border).
  void message(const QString& text);

 private:
  struct Binding {
    int id;
    int part;
  };
  QUndoCommand* route(const FilterEdit& edit);
  /// A step of the list changed: one that is gone ends the editing.
  void stepsChanged();
  /// The undo stack moved: an editor command undone or redone while a step is edited ends it (the document
  /// holds the editor's own filter again).
  void undoMoved(int index);
  void show(int id, int part);

  ChainController* m_controller;
  FilterDocument* m_document;
  std::optional<Binding> m_bound;
  struct Own {
    FilterSet filter, baseline;
    std::array<bool, kChannels> normalise{};  ///< its Normalise boxes: off while a step is edited
  };
  /// The editor's own filter again, as it was when the first step was shown (`restoreFilter`), with its
  /// Normalise boxes; or only the end of the step editing (the document holds the editor's filter already).
  void giveBack(bool restoreFilter);
  std::optional<Own> m_own;  ///< the editor's own filter while a step is edited
  int m_undoIndex = 0;
};

}  // namespace convolab::gui
