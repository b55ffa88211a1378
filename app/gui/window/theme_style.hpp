// SPDX-License-Identifier: MIT
// ThemeStyle: Fusion with the app's few style decisions that a style sheet cannot make: combo box lists drawn
// by an item delegate (so their highlight is the style sheet's, issue 33.10: Fusion's menu-like combo
// delegate drew hover at 1.1:1), and no icons on dialog buttons (Fusion put pen and broom icons there).
#pragma once

#include <QProxyStyle>

namespace convolab::gui {

class ThemeStyle : public QProxyStyle {
  Q_OBJECT

 public:
  /// Fusion as the base.
  ThemeStyle();

  void polish(QWidget* widget) override;
  using QProxyStyle::polish;
  int styleHint(StyleHint hint, const QStyleOption* option = nullptr, const QWidget* widget = nullptr,
                QStyleHintReturn* returnData = nullptr) const override;
};

}  // namespace convolab::gui
