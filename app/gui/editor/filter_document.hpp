// SPDX-License-Identifier: MIT
// FilterDocument: the filter being edited; every change goes through the undo stack and is announced once.
#pragma once

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <functional>
#include <optional>

#include "convolab/filter.hpp"

class QUndoCommand;

namespace convolab::gui {

/// The editor works on matrices of at least this size; smaller filters are centred inside (zero
/// padding gives the same result).
inline constexpr int kEditorSize = 7;
/// The largest K the editor shows as a grid of numbers; larger matrices (up to kMaxFilterSize, 63) show as a
/// heat map (HeatMapPanel).
inline constexpr int kMaxGridSize = 15;
/// Merge keys of generator parameters (GeneratorPanel): kGeneratorMergeKey + a parameter's index, so that
/// dragging one parameter is one undo step. Apart from FilterDocument's own keys (1000…1039, 100000…).
inline constexpr int kGeneratorMergeKey = 5000;

/// The editor's form of a loaded filter: K < 7 centred into 7×7; K ≥ 7 unchanged.
FilterSet toEditorSize(const FilterSet& filter);

/// GIMP's Convolution Matrix "Normalise" rule for one channel, Σ = sum of the matrix:
/// Σ > 0: divisor Σ, offset 0;  Σ < 0: divisor −Σ, offset 255;  Σ = 0: divisor 1, offset 128.
ChannelFilter normalisedLikeGimp(ChannelFilter channel);

/// One change of the document, as it would be pushed: the filter and its baseline on each side.
struct FilterEdit {
  FilterSet before, after;
  FilterSet baselineBefore, baselineAfter;
  QString what;
  int mergeKey = 0;
};

/// Holds the current FilterSet (always valid: FilterSet::make checked it). Channel edits apply to all
/// three channels while linked. Lives on the GUI thread.
///
/// Nothing here throws: an edit whose result FilterSet::make refuses (divisor 0, the float-range rule of
/// FILTER_FORMAT.md, e.g. a cell of 100000 or a divisor of 0.0001 under a box blur) returns false with the
/// reason in `error` and leaves the filter, the undo stack and Normalise as they were. The slots without an
/// `error` out-parameter report a refusal through editRefused(). Qt slots must not throw
/// (docs/RELIABILITY.md).
class FilterDocument : public QObject {
  Q_OBJECT

 public:
  explicit FilterDocument(QObject* parent = nullptr);

  /// The undo history keeps this many steps (older ones are dropped): a step holds four snapshots, ~5 KiB
  /// at 7×7 and ~22 KiB at 15×15, so the history stays under 5 MiB (issue 34.11).
  static constexpr int kUndoLimit = 200;

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
  bool setAutoNormalise(int channel, bool on, QString* error = nullptr);

  /// A fresh key for one cell edit: every setCell made with it (each keystroke and the final commit) merges
  /// into one undo step. Cell edits without a key are one step each.
  int beginCellEdit();
  /// Undoes and forgets what setCell applied under `editKey` (the cell editor was cancelled, or its final
  /// text was refused): the cell is back to its value before the edit, with no undo step left behind.
  void cancelCellEdit(int editKey);
  bool setCell(int channel, int row, int col, double value, QString* error = nullptr, int editKey = 0);
  bool setDivisor(int channel, double divisor, QString* error = nullptr);
  bool setOffset(int channel, double offset, QString* error = nullptr);
  /// Applies normalisedLikeGimp once (the channel, or all three while linked).
  bool normalise(int channel, QString* error = nullptr);
  bool copyToAll(int channel, QString* error = nullptr);
  bool setBorder(BorderMode border, QString* error = nullptr);
  bool setBorderValue(int channel, double value, QString* error = nullptr);
  void resetToIdentity();
  bool setSize(int k, QString* error = nullptr);
  /// Replaces everything with an unedited filter (preset, import); `what` names the step in the undo history.
  void replace(const FilterSet& filter, const QString& what);
  /// Replaces the coefficients but counts as an edit of the current filter (paste).
  void replaceEdited(const FilterSet& filter, const QString& what);
  /// Replaces the coefficients with a generator's (GeneratorPanel: parameters, or an image), generator
  /// parameters included: an edit of the current filter, with Normalise off. `mergeKey` ≠ 0 merges repeats.
  void setGenerated(const FilterSet& filter, const QString& what, int mergeKey = 0);
  /// Gives the current filter a name and makes it the unedited baseline (saved as a preset).
  void rename(const QString& name, const QString& what);
  /// Sets the filter without an undo step (restoring the last session); `baseline` (default: the filter
  /// itself) is what it was last loaded or saved as, so an edited filter comes back marked modified.
  void restore(const FilterSet& filter, const std::optional<FilterSet>& baseline = std::nullopt);

  /// Applied by undo commands.
  void apply(const FilterSet& filter, const FilterSet& baseline);

  /// While set, every change becomes the command `route` makes of it instead of a SetFilterCommand (the
  /// Chain dock: while the editor edits a chain step, its edits are that step's, StepEditCommand); a null
  /// command refuses the change. An empty function ends it.
  using EditRoute = std::function<QUndoCommand*(const FilterEdit& edit)>;
  void setEditRoute(EditRoute route) { m_route = std::move(route); }

 signals:
  void filterChanged(const convolab::FilterSet& filter);
  void linkedChanged(bool linked);
  void autoNormaliseChanged();
  /// An edit made through a slot without an error out-parameter (Reset) was refused; the message says why.
  void editRefused(const QString& message);

 private:
  /// Pushes an undoable change from the current filter to `next`; `mergeKey` ≠ 0 merges repeats
  /// (arrow-stepping a divisor is one undo step).
  void change(const FilterSet& next, const QString& what, int mergeKey = 0,
              const FilterSet* newBaseline = nullptr);
  /// Builds the next filter with `build` (which may throw convolab::Error) and pushes it with change();
  /// a refused one leaves everything as it was and puts the reason in `error`.
  bool tryChange(const std::function<FilterSet()>& build, const QString& what, QString* error,
                 int mergeKey = 0, bool resetsBaseline = false);
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
  EditRoute m_route;
  int m_nextCellEditKey = 0;  ///< cycles through kCellEditKeys (filter_document.cpp)
};

}  // namespace convolab::gui
