// SPDX-License-Identifier: MIT
// KernelHeatMap: one channel's K×K matrix drawn as coloured cells (theme::heatColor, a diverging map scaled
// to the channel's largest |weight|), for the editor's large kernels (K > 15): wheel zoom, a fit mode, the
// cell under the pointer, click to edit (HeatMapPanel puts the editor over the cell).
#pragma once

#include <QImage>
#include <QWidget>

#include "convolab/filter.hpp"

namespace convolab::gui {

class KernelHeatMap : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kMinCell = 2;   ///< px a cell takes at the smallest zoom
  static constexpr int kMaxCell = 48;  ///< … and at the largest (a 63×63 is then 3024 px: scrolled)

  explicit KernelHeatMap(QWidget* parent = nullptr);

  /// Shows `channel` (its matrix; the colour scale is its largest |value|).
  void setChannel(const ChannelFilter& channel);
  const ChannelFilter& channel() const { return m_channel; }
  /// The largest |value| of the matrix: the ends of the colour scale (0 for an all-zero matrix).
  double scaleMax() const { return m_scaleMax; }

  /// Pixels a cell takes now.
  int cellSize() const { return m_cell; }
  /// Sets the zoom (clamped to kMinCell…kMaxCell) and leaves fit mode.
  void setCellSize(int px);
  /// One wheel notch in (steps > 0) or out, about the cell under `anchor` (a position in this widget).
  void zoomBy(int steps, QPoint anchor);
  /// Fit mode: cells as large as `setFitArea`'s area allows for the whole matrix (and again whenever the
  /// matrix or the area changes).
  bool fitMode() const { return m_fit; }
  void setFitMode(bool fit);
  /// The room the matrix has (the scroll area's viewport): fit mode sizes the cells to it.
  void setFitArea(QSize area);

  /// The cell (x = column, y = row) at a position in this widget, or (-1, -1) outside the matrix.
  QPoint cellAt(QPoint pos) const;
  /// Where cell (row, col) is drawn, in this widget.
  QRect cellRect(int row, int col) const;
  /// The cell under the pointer (or the keyboard's current cell), or (-1, -1).
  QPoint hoveredCell() const { return m_hover; }

 signals:
  /// The pointer moved onto cell (row, col); (-1, -1) when it left the matrix.
  void hovered(int row, int col);
  /// A left click on cell (row, col) (a press and release on the same cell).
  void cellClicked(int row, int col);
  /// The zoom changed: `before` px a cell → cellSize(), about `anchor` (a position in this widget before).
  void zoomed(int before, QPoint anchor);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 private:
  void applyCellSize(int px, QPoint anchor);
  void setHover(QPoint cell);
  void rebuildImage();

  ChannelFilter m_channel;
  QImage m_image;  ///< K×K, one pixel a cell, drawn scaled without smoothing
  double m_scaleMax = 0;
  int m_cell = 6;
  bool m_fit = true;
  QSize m_fitArea{384, 384};
  QPoint m_hover{-1, -1};
  QPoint m_pressed{-1, -1};
  int m_wheel = 0;  ///< wheel angle not yet a whole notch (1/8 degrees)
};

}  // namespace convolab::gui
