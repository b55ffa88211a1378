// SPDX-License-Identifier: MIT
// Theme: the app's dark palette, style sheet, fonts and the named colours widgets share (no widget spells a
// colour itself).
#pragma once

#include <QBrush>
#include <QColor>
#include <QFont>

class QAbstractAxis;
class QApplication;
class QChart;

namespace convolab::gui::theme {

/// Fusion style, dark palette, style sheet. Call once after the QApplication exists.
void apply(QApplication& app);

QColor channelColor(int channel);    ///< R, G, B accents
QBrush cellTextColor(double value);  ///< zeros dimmed, negatives tinted
QBrush centreCellColor();
QColor accent();
QColor ok();
QColor warning();  ///< amber
QColor danger();   ///< red

// Surfaces and text.
QColor window();       ///< the window and chart background
QColor base();         ///< input fields, the darkest panels
QColor panel();        ///< raised panels, buttons
QColor canvas();       ///< behind the preview image
QColor text();         ///< normal text
QColor dimText();      ///< secondary text, axis titles
QColor faintText();    ///< hints, zero values, disabled text
QColor softText();     ///< labels one step brighter than dimText
QColor brightText();   ///< text on the preview's overlay pills
QColor textOnLight();  ///< text over light cells (a bright pixel in the inspector)
QColor gridLine();     ///< chart grid lines
QColor axisLine();     ///< chart axes and frames
/// A style sheet that sets a label's text colour, e.g. textStyle(dimText()).
QString textStyle(const QColor& color);

// The filter editor's heat map (K > 15).
/// Diverging colour map, t in −1..1 (a weight over the channel's largest |weight|): negatives blue, zero a
/// neutral grey a step above the panel, positives amber; the ends are light, so both signs stand out on dark.
QColor heatColor(double t);
QColor heatCellLine();  ///< the lines between cells once they are large enough to separate
QColor heatHover();     ///< the outline of the cell under the pointer (and the centre mark)

// The preview's overlays.
enum class Pill { Label, Paused, Bypass, Stale, Preparing, Busy, Disconnected };
QColor pillColor(Pill pill);  ///< the background of a pill drawn over the preview
QColor staleShade();          ///< over a frame made with an older filter
QColor disconnectedShade();   ///< over the last frame of a lost source
QColor splitLine();           ///< the split view's divider
QColor splitKnob();           ///< its handle
QColor pixelGrid();           ///< the lines between frame pixels of a zoomed preview (≥ 800 %)
QColor bannerBackground();    ///< the warning strip along the preview's top
QColor bannerText();

// The lab.
QColor zeroWeight();             ///< a zero weight in the inspector's neighbourhood panel
QColor responseColor(double t);  ///< the frequency-response colour map (viridis), t in 0..1
QColor responseCrosshair();      ///< the u = 0 and v = 0 lines over it
/// Syntax colours of the kernel source view.
enum class Syntax { Type, Keyword, Qualifier, Function, Number, Preprocessor, String, Comment };
QColor syntaxColor(Syntax role);

// Charts (Qt Charts): the window background, no rounding; axes in the theme's grid and text colours.
void styleChart(QChart* chart);
void styleAxis(QAbstractAxis* axis, const QFont& font, const QColor& labels = dimText());

/// The colour of a timing stage in the chart and the stats table: upload, download, display, and kernels in
/// order.
QColor stageColor(const QString& name, int kernelIndex);
/// A fixed-pitch font for numbers (stats), at the application's point size unless given.
QFont monoFont(qreal pointSize = 0);

}  // namespace convolab::gui::theme
