// SPDX-License-Identifier: MIT
// The preview's overlay primitives: pills, the pixel grid and the split divider's line and knob, drawn with a
// QPainter over the frame layer. Free functions of the painter, the bounds and the PreviewView, so they need
// no widget; PreviewMarks decides which of them to draw and with what text.
#pragma once

#include <QColor>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <Qt>

class QPainter;

namespace convolab::gui {

class PreviewView;

/// Draws a pill with `text` in the painter's font at `anchor` (placePill's `align`), kept inside `bounds`
/// with the text elided to fit; returns where it went.
QRectF drawPreviewPill(QPainter& p, const QRectF& bounds, const QPointF& anchor, const QString& text,
                       Qt::Alignment align, const QColor& bg);
/// Thin lines between the frame pixels in view, when `view` zooms far enough (PreviewView::gridVisible).
void drawPixelGrid(QPainter& p, const PreviewView& view);
/// Which sides of a split are in `target` (the part of the frame in view): at 600–1200 % the divider leaves
/// the view and only one side is there, so only its pill is drawn (issue 33.8).
struct SplitSides {
  bool original = true;
  bool filtered = true;
};
SplitSides splitSidesInView(const PreviewView& view, const QRectF& target);
/// The split divider: its line, and the knob with two arrowheads in the middle of the divider's part of
/// `target` (the part of the frame in view).
void drawSplitDivider(QPainter& p, const PreviewView& view, const QRectF& target);

}  // namespace convolab::gui
