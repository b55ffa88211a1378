// FilterDocument: the filter being edited; every change goes through the undo stack and is announced once.
#pragma once

#include <QObject>
#include <QString>
#include <QUndoStack>

#include "convolab/filter.hpp"

namespace convolab::gui {

/// The editor works on matrices of at least this size; smaller filters are centred inside (zero
/// padding gives the same result).
inline constexpr int kEditorSize = 7;

/// `filter` resized to k×k about its centre: growing pads with zeros, shrinking keeps the centre.
FilterSet resizeFilter(const FilterSet& filter, int k);
/// The editor's form of a loaded filter: K < 7 centred into 7×7; K ≥ 7 unchanged.
FilterSet toEditorSize(const FilterSet& filter);

/// Holds the current FilterSet (always valid: FilterSet::make checked it). Channel edits apply to all
/// three channels while linked. Lives on the GUI thread.
class FilterDocument : public QObject {
  Q_OBJECT

 public:
  explicit FilterDocument(QObject* parent = nullptr);

  const FilterSet& filter() const { return m_filter; }
  QUndoStack* undoStack() { return &m_undo; }

  bool linked() const { return m_linked; }
  void setLinked(bool linked);

  void setCell(int channel, int row, int col, double value);
  /// Refuses 0 (returns false and leaves `error` set); everything else is applied.
  bool setDivisor(int channel, double divisor, QString* error = nullptr);
  void setOffset(int channel, double offset);
  /// divisor = sum of the matrix; returns false (nothing changes) when the sum is 0.
  bool normalise(int channel);
  void copyToAll(int channel);
  void setBorder(BorderMode border);
  void setBorderValue(int channel, double value);
  void resetToIdentity();
  void setSize(int k);
  /// Replaces everything (preset, import, paste); `what` names the step in the undo history.
  void replace(const FilterSet& filter, const QString& what);
  /// Sets the filter without an undo step (restoring the last session).
  void restore(const FilterSet& filter);

  /// Applied by undo commands.
  void apply(const FilterSet& filter);

 signals:
  void filterChanged(const convolab::FilterSet& filter);
  void linkedChanged(bool linked);

 private:
  /// Pushes an undoable change from the current filter to `next`; `mergeKey` ≠ 0 merges repeats
  /// (arrow-stepping a divisor is one undo step).
  void change(const FilterSet& next, const QString& what, int mergeKey = 0);
  /// The channels an edit of `channel` touches: all three while linked.
  std::pair<int, int> channelRange(int channel) const;

  FilterSet m_filter;
  QUndoStack m_undo;
  bool m_linked = false;
};

}  // namespace convolab::gui
