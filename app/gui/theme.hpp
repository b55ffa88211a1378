// SPDX-License-Identifier: MIT
// Theme: the app's dark palette, style sheet, fonts and the few semantic colours widgets share.
#pragma once

#include <QBrush>
#include <QColor>
#include <QFont>

class QApplication;

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
QColor dimText();
/// The colour of a timing stage in the chart and the stats table: upload, download, and kernels in order.
QColor stageColor(const QString& name, int kernelIndex);
/// A fixed-pitch font for numbers (stats), at the application's point size unless given.
QFont monoFont(qreal pointSize = 0);

}  // namespace convolab::gui::theme
