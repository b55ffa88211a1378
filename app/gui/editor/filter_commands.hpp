// SPDX-License-Identifier: MIT
// SetFilterCommand: one undoable step of the filter editor (before and after snapshots).
#pragma once

#include <QUndoCommand>

#include "convolab/filter.hpp"

namespace convolab::gui {

class FilterDocument;

/// Stores whole snapshots (a 7×7×3 filter is ~1 KiB), so any edit — a cell, a paste, a preset — is
/// undone the same way. Commands with the same non-zero merge key in a row collapse into one.
class SetFilterCommand : public QUndoCommand {
 public:
  /// `baselineBefore`/`baselineAfter`: the unedited filter (the last preset, import or reset) on each side,
  /// so undo also restores whether the name shows as modified.
  SetFilterCommand(FilterDocument* document, FilterSet before, FilterSet after, FilterSet baselineBefore,
                   FilterSet baselineAfter, const QString& text, int mergeKey);

  void undo() override;
  void redo() override;
  int id() const override { return m_mergeKey == 0 ? -1 : m_mergeKey; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  FilterDocument* m_document;
  FilterSet m_before;
  FilterSet m_after;
  FilterSet m_baselineBefore;
  FilterSet m_baselineAfter;
  int m_mergeKey;
};

}  // namespace convolab::gui
