// SPDX-License-Identifier: MIT
// RecentSourcesMenu: File ▸ Open Recent, the last sources that opened (kept in AppSettings).
#pragma once

#include <QMenu>

namespace convolab::gui {

class AppSettings;

class RecentSourcesMenu : public QMenu {
  Q_OBJECT

 public:
  RecentSourcesMenu(AppSettings* settings, QWidget* parent = nullptr);
  /// Rebuilds the entries (also done each time the menu is about to show). Files that no longer exist are
  /// listed greyed out, with "(missing)".
  void rebuild();

 signals:
  void openRequested(const QString& spec);

 private:
  AppSettings* m_settings;
};

}  // namespace convolab::gui
