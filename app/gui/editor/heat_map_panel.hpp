// SPDX-License-Identifier: MIT
// HeatMapPanel: a channel card's view of a large kernel (K > 15, where the number grid would be 63 columns
// wide): the zoomable heat map in a scroll area, its zoom buttons and colour scale, the value under the
// pointer, and a small editor put over a clicked cell (one undo step per edit, through
// FilterDocument::setCell).
#pragma once

#include <QWidget>

#include "convolab/filter.hpp"

class QLabel;
class QLineEdit;
class QScrollArea;
class QToolButton;

namespace convolab::gui {

class FilterDocument;
class KernelHeatMap;

class HeatMapPanel : public QWidget {
  Q_OBJECT

 public:
  /// The side of the square the heat map has before it scrolls (a 63×63 fits at 6 px a cell).
  static constexpr int kViewSide = 384;

  HeatMapPanel(int channel, FilterDocument* document, QWidget* parent = nullptr);

  /// Shows `channel`'s matrix (called whenever the document changes).
  void refresh(const ChannelFilter& channel);
  /// Opens the cell editor over (row, col) with its exact value selected (what a click on the cell does).
  void editCell(int row, int col);

  KernelHeatMap* map() const { return m_map; }
  QScrollArea* scrollArea() const { return m_scroll; }
  /// The value under the pointer (or how to read one).
  QLabel* readout() const { return m_readout; }
  /// The editor over a clicked cell; hidden while no cell is edited.
  QLineEdit* cellEditor() const { return m_editor; }
  QToolButton* fitButton() const { return m_fit; }
  QLabel* zoomLabel() const { return m_zoomText; }
  QLabel* scaleLabel() const { return m_scale; }

 signals:
  /// A cell edit went through (applied) or was refused (the reason in `error`).
  void edited(bool applied, const QString& error);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void showReadout(int row, int col);
  void onZoomed(int before, QPoint anchor);
  void commitEdit();
  void closeEditor();
  void updateScale();

  int m_channel;
  FilterDocument* m_document;
  KernelHeatMap* m_map;
  QScrollArea* m_scroll;
  QLabel* m_readout;
  QLabel* m_zoomText;
  QLabel* m_scale;  ///< the colour scale: −max, the gradient, +max
  QToolButton* m_fit;
  QLineEdit* m_editor;
  int m_editRow = -1;  ///< the cell the editor is open on; -1: none
  int m_editCol = -1;
};

}  // namespace convolab::gui
