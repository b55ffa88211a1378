// SPDX-License-Identifier: MIT
// The app's proxy style over Fusion.
#include "window/theme_style.hpp"

#include <QComboBox>
#include <QStyleFactory>
#include <QStyledItemDelegate>

namespace convolab::gui {

ThemeStyle::ThemeStyle() : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion"))) {}

void ThemeStyle::polish(QWidget* widget) {
  QProxyStyle::polish(widget);
  // QComboMenuDelegate paints items as menu entries and ignores the list's selection colours; a styled
  // delegate paints the style sheet's `QComboBox QAbstractItemView` selection (theme.cpp).
  if (auto* combo = qobject_cast<QComboBox*>(widget);
      combo && !qobject_cast<QStyledItemDelegate*>(combo->itemDelegate()))
    combo->setItemDelegate(new QStyledItemDelegate(combo));
}

int ThemeStyle::styleHint(StyleHint hint, const QStyleOption* option, const QWidget* widget,
                          QStyleHintReturn* returnData) const {
  if (hint == SH_DialogButtonBox_ButtonsHaveIcons) return 0;
  return QProxyStyle::styleHint(hint, option, widget, returnData);
}

}  // namespace convolab::gui
