// SPDX-License-Identifier: MIT
// ChannelGrid: one channel's K×K coefficients — a table of numbers up to 15×15, a heat map beyond
// (HeatMapPanel) — with its divisor, offset, sum, Normalise and Copy to all, and a message line for its
// fields.
#pragma once

#include <QFont>
#include <QFrame>

#include "convolab/filter.hpp"

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QTableWidget;
class QTableWidgetItem;
class QTimer;
class QToolButton;
class QVBoxLayout;

namespace convolab::gui {

class CompactSpinBox;
class FilterDocument;
class HeatMapPanel;

class ChannelGrid : public QFrame {
  Q_OBJECT

 public:
  ChannelGrid(int channel, FilterDocument* document, QWidget* parent = nullptr);

  /// Shows `filter`'s channel (called whenever the document changes).
  void refresh(const FilterSet& filter);
  /// Linked: this grid stands for R, G and B (badge "RGB", no Copy to all).
  void setLinkedLook(bool linked);
  /// A message about this grid's fields, shown under them and hidden after `ms` (0: until replaced).
  void showMessage(const QString& message, int ms);
  QString messageText() const;
  QLabel* messageLabel() const { return m_message; }
  QLabel* titleLabel() const { return m_name; }

  /// The number grid: shown for K ≤ kMaxGridSize (15).
  QTableWidget* table() const { return m_table; }
  /// The heat map: shown instead of the table for K > kMaxGridSize.
  HeatMapPanel* heatMap() const { return m_heatMap; }
  CompactSpinBox* divisorBox() const { return m_divisor; }
  CompactSpinBox* offsetBox() const { return m_offset; }
  QCheckBox* normaliseBox() const { return m_normalise; }
  QToolButton* copyToAllButton() const { return m_copyToAll; }

 signals:
  /// An edit was refused (divisor 0, not a number); shown inline by the editor.
  void editRejected(const QString& message);
  /// An edit went through (clears a stale inline error).
  void editAccepted();

 private:
  // The constructor's steps: the header row (badge, name, Σ, Normalise, Copy to all); the table and the heat
  // map that stands in for it; the divisor and offset fields; the message line; the fields' edits to the
  // document.
  QHBoxLayout* makeHeader();
  void addTableAndHeatMap(QVBoxLayout* layout);
  QHBoxLayout* makeFields();
  void addMessageLine(QVBoxLayout* layout);
  void connectFields();
  void onItemChanged(QTableWidgetItem* item);
  /// A keystroke in the cell editor at (row, col): applied at once when the text is a number.
  void onTyped(int row, int col, const QString& text);
  /// Emits editAccepted, or editRejected(error) and shows the values still in effect.
  void report(bool applied, const QString& error);
  QString cellName(int row, int col) const;
  void resizeTable(int k);
  /// Fills the table's items from `ch` (K ≤ 15 only: a 63×63 table would be 3969 items).
  void fillTable(const ChannelFilter& ch);

  int m_channel;
  FilterDocument* m_document;
  QLabel* m_badge;
  QLabel* m_name;
  QLabel* m_sum;
  QLabel* m_message;
  QTimer* m_messageTimer;
  QTableWidget* m_table;
  HeatMapPanel* m_heatMap;
  CompactSpinBox* m_divisor;
  CompactSpinBox* m_offset;
  QCheckBox* m_normalise;
  QToolButton* m_copyToAll;
  QFont m_cellFont;  ///< the cells' font (condensed for K ≥ 11)
  bool m_updating = false;
  int m_liveEdit = 0;  ///< FilterDocument::beginCellEdit's key while a cell editor has applied keystrokes
};

}  // namespace convolab::gui
