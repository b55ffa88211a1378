// SPDX-License-Identifier: MIT
// FilterDocument: the filter being edited; every change goes through the undo stack and is announced once.
#pragma once

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <optional>

#include "convolab/filter.hpp"

namespace convolab::gui {

/// The editor works on matrices of at least this size; smaller filters are centred inside (zero
/// padding gives the same result).
inline constexpr int kEditorSize = 7;
/// The largest K the number grid edits (its size box stops here); larger files load at their size.
inline constexpr int kMaxGridSize = 15;

/// The editor's form of a loaded filter: K < 7 centred into 7×7; K ≥ 7 unchanged.
FilterSet toEditorSize(const FilterSet& filter);

/// GIMP's Convolution Matrix "Normalise" rule for one channel, Σ = sum of the matrix:
/// Σ > 0: divisor Σ, offset 0;  Σ < 0: divisor −Σ, offset 255;  Σ = 0: divisor 1, offset 128.
ChannelFilter normalisedLikeGimp(ChannelFilter channel);

/// Holds the current FilterSet (always valid: FilterSet::make checked it). Channel edits apply to all
/// three channels while linked. Lives on the GUI thread.
class FilterDocument : public QObject {
  Q_OBJECT

 public:
  explicit FilterDocument(QObject* parent = nullptr);

  const FilterSet& filter() const { return m_filter; }
  QUndoStack* undoStack() { return &m_undo; }

  bool linked() const { return m_linked; }
  /// While linked, an edit of any channel's cell, divisor or offset applies to all three.
  void setLinked(bool linked);

  /// The filter as last loaded, reset or saved under its name; edits away from it mark the name modified.
  const FilterSet& baseline() const { return m_baseline; }
  bool isModified() const;
  /// "Sharpen", "Sharpen*" once edited, "Custom filter" without a name.
  QString displayName() const;

  /// GIMP's Normalise check box: while on, every edit of that channel re-applies normalisedLikeGimp.
  /// Typing a divisor or offset, or loading another filter, turns it off.
  bool autoNormalise(int channel) const { return m_autoNormalise[static_cast<size_t>(channel)]; }
  void setAutoNormalise(int channel, bool on);

  void setCell(int channel, int row, int col, double value);
  /// Refuses 0 (returns false and leaves `error` set); everything else is applied.
  bool setDivisor(int channel, double divisor, QString* error = nullptr);
  void setOffset(int channel, double offset);
  /// Applies normalisedLikeGimp once (the channel, or all three while linked).
  void normalise(int channel);
  void copyToAll(int channel);
  void setBorder(BorderMode border);
  void setBorderValue(int channel, double value);
  void resetToIdentity();
  void setSize(int k);
  /// Replaces everything with an unedited filter (preset, import); `what` names the step in the undo history.
  void replace(const FilterSet& filter, const QString& what);
  /// Replaces the coefficients but counts as an edit of the current filter (paste).
  void replaceEdited(const FilterSet& filter, const QString& what);
  /// Gives the current filter a name and makes it the unedited baseline (saved as a preset).
  void rename(const QString& name, const QString& what);
  /// Sets the filter without an undo step (restoring the last session); `baseline` (default: the filter
  /// itself) is what it was last loaded or saved as, so an edited filter comes back marked modified.
  void restore(const FilterSet& filter, const std::optional<FilterSet>& baseline = std::nullopt);

  /// Applied by undo commands.
  void apply(const FilterSet& filter, const FilterSet& baseline);

 signals:
  void filterChanged(const convolab::FilterSet& filter);
  void linkedChanged(bool linked);
  void autoNormaliseChanged();

 private:
  /// Pushes an undoable change from the current filter to `next`; `mergeKey` ≠ 0 merges repeats
  /// (arrow-stepping a divisor is one undo step).
  void change(const FilterSet& next, const QString& what, int mergeKey = 0,
              const FilterSet* newBaseline = nullptr);
  /// `channels` with the auto-normalised ones normalised.
  std::array<ChannelFilter, kChannels> withAutoNormalise(std::array<ChannelFilter, kChannels> channels) const;
  FilterSet rebuilt(const std::array<ChannelFilter, kChannels>& channels) const;
  /// The channels an edit of `channel` touches: all three while linked.
  std::pair<int, int> channelRange(int channel) const;

  FilterSet m_filter;
  FilterSet m_baseline;
  QUndoStack m_undo;
  bool m_linked = false;
  std::array<bool, kChannels> m_autoNormalise{};
};

}  // namespace convolab::gui
