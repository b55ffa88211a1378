// ChannelGrid: one channel's K×K coefficient table with its divisor, offset, sum and Normalise/Copy buttons.
#pragma once

#include <QFrame>

#include "convolab/filter.hpp"

class QLabel;
class QTableWidget;
class QTableWidgetItem;
class QToolButton;

namespace convolab::gui {

class CompactSpinBox;
class FilterDocument;

class ChannelGrid : public QFrame {
  Q_OBJECT

 public:
  ChannelGrid(int channel, FilterDocument* document, QWidget* parent = nullptr);

  /// Shows `filter`'s channel (called whenever the document changes).
  void refresh(const FilterSet& filter);

  QTableWidget* table() const { return m_table; }
  CompactSpinBox* divisorBox() const { return m_divisor; }
  CompactSpinBox* offsetBox() const { return m_offset; }
  QToolButton* normaliseButton() const { return m_normalise; }
  QToolButton* copyToAllButton() const { return m_copyToAll; }

 signals:
  /// An edit was refused (divisor 0, not a number); shown inline by the editor.
  void editRejected(const QString& message);
  /// An edit went through (clears a stale inline error).
  void editAccepted();

 private:
  void onItemChanged(QTableWidgetItem* item);
  void resizeTable(int k);

  int m_channel;
  FilterDocument* m_document;
  QLabel* m_badge;
  QLabel* m_sum;
  QTableWidget* m_table;
  CompactSpinBox* m_divisor;
  CompactSpinBox* m_offset;
  QToolButton* m_normalise;
  QToolButton* m_copyToAll;
  bool m_updating = false;
};

}  // namespace convolab::gui
