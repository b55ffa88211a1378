// SPDX-License-Identifier: MIT
// The dark theme: one palette and one style sheet, so every widget agrees on spacing and colour.
#include "window/theme.hpp"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QFontDatabase>
#include <QPalette>
#include <algorithm>
#include <cmath>

#include "window/theme_style.hpp"

namespace convolab::gui::theme {

namespace {
const QColor kWindow(0x1e, 0x21, 0x27);
const QColor kBase(0x16, 0x18, 0x1d);
const QColor kPanel(0x25, 0x29, 0x31);
const QColor kText(0xe3, 0xe6, 0xeb);
const QColor kDim(0x8a, 0x91, 0x9c);
const QColor kAccent(0x3d, 0xa9, 0xfc);
const QColor kFaint(0x5c, 0x63, 0x6e);
const QColor kCanvas(0x10, 0x12, 0x15);
const QColor kGrid(0x2c, 0x31, 0x3a);
const QColor kAxis(0x3a, 0x40, 0x4a);
const QColor kAmberDark(0x8a, 0x5a, 0x00);

QColor withAlpha(QColor c, int alpha) {
  c.setAlpha(alpha);
  return c;
}
}  // namespace

QColor channelColor(int channel) {
  static const QColor colors[] = {QColor(0xef, 0x53, 0x50), QColor(0x4c, 0xc3, 0x6a),
                                  QColor(0x4a, 0x8d, 0xf6)};
  return colors[std::clamp(channel, 0, 2)];
}

QBrush cellTextColor(double value) {
  if (value == 0) return kFaint;
  if (value < 0) return QColor(0xff, 0xa8, 0x8a);
  return kText;
}

QBrush centreCellColor() {
  return QColor(0x2b, 0x3a, 0x4d);
}
QColor accent() {
  return kAccent;
}
QColor ok() {
  return QColor(0x7d, 0xd8, 0x8f);
}
QColor warning() {
  return QColor(0xf5, 0xb0, 0x41);
}
QColor danger() {
  return QColor(0xff, 0x5f, 0x56);
}
QColor window() {
  return kWindow;
}
QColor base() {
  return kBase;
}
QColor panel() {
  return kPanel;
}
QColor canvas() {
  return kCanvas;
}
QColor text() {
  return kText;
}
QColor dimText() {
  return kDim;
}
QColor faintText() {
  return kFaint;
}
QColor softText() {
  return QColor(0xc9, 0xcd, 0xd3);
}
QColor brightText() {
  return QColor(0xf2, 0xf4, 0xf7);
}
QColor textOnLight() {
  return kCanvas;
}
QColor gridLine() {
  return kGrid;
}
QColor axisLine() {
  return kAxis;
}
QString textStyle(const QColor& color) {
  return QStringLiteral("color: %1;").arg(color.name());
}

QColor pillColor(Pill pill) {
  switch (pill) {
    case Pill::Label:
      return QColor(0, 0, 0, 150);
    case Pill::Paused:
      return QColor(0, 0, 0, 170);
    case Pill::Bypass:
      return withAlpha(kAmberDark, 210);
    case Pill::Stale:
      return withAlpha(kAmberDark, 225);
    case Pill::Preparing:
      return withAlpha(kPanel, 225);
    case Pill::Busy:
      return withAlpha(kPanel, 235);
    case Pill::Disconnected:
      return QColor(0x5a, 0x1d, 0x22, 235);
  }
  return kPanel;
}
QColor staleShade() {
  return QColor(10, 12, 15, 140);
}
QColor disconnectedShade() {
  return QColor(10, 12, 15, 170);
}
QColor splitLine() {
  return QColor(255, 255, 255, 230);
}
QColor pixelGrid() {
  return QColor(128, 134, 144, 150);
}
QColor splitKnob() {
  return QColor(255, 255, 255, 235);
}
QColor bannerBackground() {
  return QColor(0x6b, 0x3d, 0x00, 230);
}
QColor bannerText() {
  return QColor(0xff, 0xe2, 0xb0);
}

QColor zeroWeight() {
  return QColor(0x6a, 0x70, 0x7a);
}

QColor heatColor(double t) {
  // Blue (negative) → neutral grey (0) → amber (positive): light at the ends, dark in the middle, so the sign
  // reads from the hue and the size from the lightness (and the two ends differ for red-green colour
  // blindness).
  static const QColor negative[] = {QColor(0x35, 0x39, 0x41), QColor(0x1f, 0x5f, 0xa8),
                                    QColor(0x4f, 0x9c, 0xf0), QColor(0xb4, 0xdc, 0xff)};
  static const QColor positive[] = {QColor(0x35, 0x39, 0x41), QColor(0xa0, 0x52, 0x10),
                                    QColor(0xf0, 0x94, 0x2a), QColor(0xff, 0xe0, 0xa8)};
  t = std::clamp(std::isfinite(t) ? t : 0.0, -1.0, 1.0);
  const QColor* stops = t < 0 ? negative : positive;
  const double u = std::abs(t) * 3.0;
  const int i = std::min(2, static_cast<int>(u));
  const double f = u - i;
  const QColor &a = stops[i], &b = stops[i + 1];
  return QColor::fromRgbF(static_cast<float>(a.redF() + f * (b.redF() - a.redF())),
                          static_cast<float>(a.greenF() + f * (b.greenF() - a.greenF())),
                          static_cast<float>(a.blueF() + f * (b.blueF() - a.blueF())));
}
QColor heatCellLine() {
  return withAlpha(kCanvas, 150);
}
QColor heatHover() {
  return kText;
}

QColor responseColor(double t) {
  // Viridis, sampled at nine stops.
  static const QColor stops[] = {QColor(68, 1, 84),    QColor(71, 44, 122),  QColor(59, 81, 139),
                                 QColor(44, 113, 142), QColor(33, 144, 141), QColor(39, 173, 129),
                                 QColor(92, 200, 99),  QColor(170, 220, 50), QColor(253, 231, 37)};
  t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * 8.0;
  const int i = std::min(7, static_cast<int>(t));
  const double f = t - i;
  const QColor &a = stops[i], &b = stops[i + 1];
  return QColor::fromRgbF(static_cast<float>(a.redF() + f * (b.redF() - a.redF())),
                          static_cast<float>(a.greenF() + f * (b.greenF() - a.greenF())),
                          static_cast<float>(a.blueF() + f * (b.blueF() - a.blueF())));
}
QColor responseCrosshair() {
  return QColor(255, 255, 255, 90);
}

QColor syntaxColor(Syntax role) {
  switch (role) {
    case Syntax::Type:
      return QColor(0x4e, 0xc9, 0xb0);
    case Syntax::Keyword:
      return QColor(0xc5, 0x86, 0xc0);
    case Syntax::Qualifier:
      return QColor(0x56, 0x9c, 0xd6);
    case Syntax::Function:
      return QColor(0xdc, 0xdc, 0xaa);
    case Syntax::Number:
      return QColor(0xb5, 0xce, 0xa8);
    case Syntax::Preprocessor:
      return QColor(0xd7, 0xba, 0x7d);
    case Syntax::String:
      return QColor(0xce, 0x91, 0x78);
    case Syntax::Comment:
      return QColor(0x6a, 0x99, 0x55);
  }
  return kText;
}

void styleChart(QChart* chart) {
  chart->setBackgroundBrush(kWindow);
  chart->setBackgroundRoundness(0);
}

void styleAxis(QAbstractAxis* axis, const QFont& font, const QColor& labels) {
  axis->setLabelsColor(labels);
  axis->setLabelsFont(font);
  axis->setGridLineColor(kGrid);
  axis->setLinePenColor(kAxis);
  axis->setTitleBrush(kDim);
  axis->setTitleFont(font);
}

QColor stageColor(const QString& name, int kernelIndex) {
  if (name == QLatin1String("upload")) return QColor(0x4c, 0xc3, 0x6a);
  if (name == QLatin1String("download")) return QColor(0xb3, 0x88, 0xff);
  if (name == QLatin1String("display")) return QColor(0xc0, 0xca, 0x33);
  static const QColor kernels[] = {QColor(0x3d, 0xa9, 0xfc), QColor(0xff, 0x8a, 0x65),
                                   QColor(0xf0, 0x62, 0x92), QColor(0x26, 0xc6, 0xda),
                                   QColor(0xff, 0xd5, 0x4f)};
  return kernels[static_cast<size_t>(std::max(0, kernelIndex)) % std::size(kernels)];
}

QFont monoFont(qreal pointSize) {
  QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  f.setStyleHint(QFont::Monospace);
  if (pointSize > 0)
    f.setPointSizeF(pointSize);
  else
    f.setPointSizeF(QApplication::font().pointSizeF());
  return f;
}

namespace {

// Every role of the palette, from the colours above.
QPalette darkPalette() {
  QPalette p;
  p.setColor(QPalette::Window, kWindow);
  p.setColor(QPalette::WindowText, kText);
  p.setColor(QPalette::Base, kBase);
  p.setColor(QPalette::AlternateBase, kPanel);
  p.setColor(QPalette::ToolTipBase, kPanel);
  p.setColor(QPalette::ToolTipText, kText);
  p.setColor(QPalette::PlaceholderText, kDim);
  p.setColor(QPalette::Text, kText);
  p.setColor(QPalette::Button, kPanel);
  p.setColor(QPalette::ButtonText, kText);
  p.setColor(QPalette::BrightText, Qt::white);
  p.setColor(QPalette::Highlight, kAccent);
  p.setColor(QPalette::HighlightedText, QColor(0x0b, 0x12, 0x1a));
  p.setColor(QPalette::Link, kAccent);
  p.setColor(QPalette::Mid, QColor(0x33, 0x38, 0x41));
  p.setColor(QPalette::Dark, QColor(0x12, 0x14, 0x18));
  p.setColor(QPalette::Light, kAxis);
  p.setColor(QPalette::Disabled, QPalette::Text, kDim);
  p.setColor(QPalette::Disabled, QPalette::ButtonText, kFaint);
  p.setColor(QPalette::Disabled, QPalette::WindowText, kDim);
  return p;
}

// Spacing, borders and the colours the palette cannot say, one rule a line.
QString styleSheet() {
  return QStringLiteral(R"(
QMainWindow::separator { background: #14161a; width: 4px; height: 4px; }
QDockWidget { titlebar-close-icon: none; font-weight: 600; }
QDockWidget::title { background: #1a1d22; padding: 6px 10px; border-bottom: 1px solid #2c313a; }
QToolBar { background: #1a1d22; border: none; border-bottom: 1px solid #2c313a; padding: 4px 6px; spacing: 4px; }
QToolBar QToolButton { padding: 4px 9px; border-radius: 5px; }
QToolBar QToolButton:hover { background: #2c323c; }
QToolBar QToolButton:checked { background: #23405e; color: #cfe8ff; }
QToolBar QLabel { color: #8a919c; padding-left: 6px; }
QStatusBar { background: #1a1d22; border-top: 1px solid #2c313a; color: #aab1bb; }
QStatusBar QLabel { padding: 0 8px; }
QToolButton { padding: 3px 8px; border: 1px solid #343a44; border-radius: 5px; background: #272b33; }
QToolButton:hover { background: #303641; border-color: #46505e; }
QToolButton:pressed { background: #1f3a55; }
QToolButton:disabled { color: #5c636e; border-color: #2a2f37; background: #22262d; }
QToolButton::menu-indicator { image: none; width: 0; }
QToolBar QToolButton { border: 1px solid transparent; background: transparent; }
/* Qt's own file dialog: the padding above squeezed its toolbar icons to dots (issue 33.10). */
QFileDialog QToolButton { padding: 2px; min-width: 20px; min-height: 20px; }
QPushButton { padding: 6px 14px; border: 1px solid #3a414c; border-radius: 6px; background: #2a2f38; }
QPushButton:hover { background: #333a45; }
QPushButton[compact="true"] { padding: 0 10px; border-radius: 4px; }
QPushButton#primary { background: #1f6fb2; border-color: #2b84cf; color: white; }
QPushButton#primary:hover { background: #2580cc; }
QComboBox, QAbstractSpinBox, QLineEdit { padding: 3px 6px; border: 1px solid #343a44; border-radius: 5px; background: #15171c; min-height: 18px; }
QComboBox:focus, QAbstractSpinBox:focus, QLineEdit:focus { border-color: #3da9fc; }
QComboBox QAbstractItemView { background: #1e2127; border: 1px solid #343a44; selection-background-color: #3da9fc; selection-color: #0b121a; outline: none; }
QComboBox QAbstractItemView::item { padding: 3px 8px; min-height: 18px; }
QComboBox QAbstractItemView::item:selected, QComboBox QAbstractItemView::item:hover { background: #3da9fc; color: #0b121a; }
QFrame#channelCard { background: #22262d; border: 1px solid #2e333c; border-radius: 8px; }
QLabel#channelBadge { border-radius: 11px; color: white; font-weight: 700; }
QLabel#channelName { font-weight: 600; }
QLabel#filterTitle { font-size: 11pt; font-weight: 600; }
QLabel#monoDim { color: #8a919c; font-family: "DejaVu Sans Mono"; }
QLabel#inlineError { background: #3a1f22; color: #ffb4ab; border-top: 1px solid #6b2b30; padding: 8px 12px; }
QTableWidget#kernelTable { background: #15171c; gridline-color: #2a2f37; border: 1px solid #343a44; border-radius: 4px;
  font-family: "DejaVu Sans Mono"; selection-background-color: #23405e; selection-color: #ffffff; }
QTableWidget#statsTable { background: transparent; border: none; font-family: "DejaVu Sans Mono"; }
QHeaderView::section { background: transparent; color: #8a919c; border: none; border-bottom: 1px solid #2c313a; padding: 3px 6px; font-weight: 600; }
QCheckBox { spacing: 6px; }
QCheckBox::indicator { width: 14px; height: 14px; border: 1px solid #4a525e; border-radius: 3px; background: #15171c; }
QCheckBox::indicator:checked { background: #3da9fc; border-color: #3da9fc; image: none; }
QAbstractSpinBox::up-button, QAbstractSpinBox::down-button { width: 0; border: none; }
QScrollArea, QWidget#editorBody, QWidget#statsBody { background: #1e2127; }
QMenu { background: #22262d; border: 1px solid #343a44; padding: 4px; }
QMenu::item { padding: 5px 24px 5px 22px; border-radius: 4px; }
QMenu::item:selected { background: #2b5d8a; color: #ffffff; }
QMenu::section { color: #8a919c; padding: 6px 12px 2px 12px; font-weight: 600; }
QMenu::separator { height: 1px; background: #343a44; margin: 4px 8px; }
QMenu::indicator { width: 12px; height: 12px; left: 5px; }
QMenu::indicator:non-exclusive:unchecked { border: 1px solid #7a828e; border-radius: 3px; background: #15171c; }
QMenu::indicator:non-exclusive:checked { border: 1px solid #3da9fc; border-radius: 3px; background: #3da9fc; }
QMenu::indicator:exclusive:unchecked { border: 1px solid #7a828e; border-radius: 6px; background: #15171c; }
QMenu::indicator:exclusive:checked { border: 3px solid #15171c; border-radius: 6px; background: #3da9fc; }
QMenuBar { background: #1a1d22; }
QMenuBar::item { padding: 5px 10px; }
QMenuBar::item:selected { background: #2c323c; border-radius: 4px; }
QToolTip { background: #2a2f38; color: #e3e6eb; border: 1px solid #46505e; padding: 5px; }
QFrame#hintPill { background: #1c3550; border: 1px solid #2b6ca8; border-radius: 8px; }
QFrame#hintPill QLabel { color: #e3f1ff; }
QToolButton#hintClose { border: none; background: transparent; padding: 0 6px; color: #cfe8ff; }
QToolButton#hintClose:hover { background: #2b5d8a; }
QGroupBox { border: 1px solid #2e333c; border-radius: 8px; margin-top: 14px; padding-top: 6px; background: #22262d; }
QGroupBox::title { subcontrol-origin: margin; left: 10px; padding: 0 4px; color: #aab1bb; font-weight: 600; }
)");
}

}  // namespace

void apply(QApplication& app) {
  app.setStyle(new ThemeStyle);  // Fusion, with combo lists and dialog buttons as theme_style.hpp says
  app.setPalette(darkPalette());
  QFont font = app.font();
  font.setFamily(QStringLiteral("DejaVu Sans"));
  font.setPointSizeF(9.5);
  app.setFont(font);
  app.setStyleSheet(styleSheet());
}

}  // namespace convolab::gui::theme
