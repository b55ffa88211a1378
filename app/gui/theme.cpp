// SPDX-License-Identifier: MIT
// The dark theme: one palette and one style sheet, so every widget agrees on spacing and colour.
#include "theme.hpp"

#include <QApplication>
#include <QFontDatabase>
#include <QPalette>
#include <QStyleFactory>

namespace convolab::gui::theme {

namespace {
const QColor kWindow(0x1e, 0x21, 0x27);
const QColor kBase(0x16, 0x18, 0x1d);
const QColor kPanel(0x25, 0x29, 0x31);
const QColor kText(0xe3, 0xe6, 0xeb);
const QColor kDim(0x8a, 0x91, 0x9c);
const QColor kAccent(0x3d, 0xa9, 0xfc);
}  // namespace

QColor channelColor(int channel) {
  static const QColor colors[] = {QColor(0xef, 0x53, 0x50), QColor(0x4c, 0xc3, 0x6a),
                                  QColor(0x4a, 0x8d, 0xf6)};
  return colors[std::clamp(channel, 0, 2)];
}

QBrush cellTextColor(double value) {
  if (value == 0) return QColor(0x5c, 0x63, 0x6e);
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
QColor dimText() {
  return kDim;
}

QColor stageColor(const QString& name, int kernelIndex) {
  if (name == QLatin1String("upload")) return QColor(0x4c, 0xc3, 0x6a);
  if (name == QLatin1String("download")) return QColor(0xb3, 0x88, 0xff);
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

void apply(QApplication& app) {
  app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
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
  p.setColor(QPalette::Light, QColor(0x3a, 0x40, 0x4a));
  p.setColor(QPalette::Disabled, QPalette::Text, kDim);
  p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x5c, 0x63, 0x6e));
  p.setColor(QPalette::Disabled, QPalette::WindowText, kDim);
  app.setPalette(p);

  QFont font = app.font();
  font.setFamily(QStringLiteral("DejaVu Sans"));
  font.setPointSizeF(9.5);
  app.setFont(font);

  app.setStyleSheet(QStringLiteral(R"(
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
QPushButton { padding: 6px 14px; border: 1px solid #3a414c; border-radius: 6px; background: #2a2f38; }
QPushButton:hover { background: #333a45; }
QPushButton#primary { background: #1f6fb2; border-color: #2b84cf; color: white; }
QPushButton#primary:hover { background: #2580cc; }
QComboBox, QAbstractSpinBox, QLineEdit { padding: 3px 6px; border: 1px solid #343a44; border-radius: 5px; background: #15171c; min-height: 18px; }
QComboBox:focus, QAbstractSpinBox:focus, QLineEdit:focus { border-color: #3da9fc; }
QComboBox QAbstractItemView { background: #1e2127; border: 1px solid #343a44; selection-background-color: #23405e; }
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
QMenu::item:selected { background: #23405e; }
QMenu::section { color: #8a919c; padding: 6px 12px 2px 12px; font-weight: 600; }
QMenu::separator { height: 1px; background: #343a44; margin: 4px 8px; }
QMenuBar { background: #1a1d22; }
QMenuBar::item { padding: 5px 10px; }
QMenuBar::item:selected { background: #2c323c; border-radius: 4px; }
QToolTip { background: #2a2f38; color: #e3e6eb; border: 1px solid #46505e; padding: 5px; }
QGroupBox { border: 1px solid #2e333c; border-radius: 8px; margin-top: 14px; padding-top: 6px; background: #22262d; }
QGroupBox::title { subcontrol-origin: margin; left: 10px; padding: 0 4px; color: #aab1bb; font-weight: 600; }
)"));
}

}  // namespace convolab::gui::theme
