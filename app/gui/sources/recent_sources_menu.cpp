// SPDX-License-Identifier: MIT
// Open Recent: one entry per remembered source, names elided in the middle, missing files greyed out.
#include "sources/recent_sources_menu.hpp"

#include <QDir>
#include <QFileInfo>
#include <QFontMetrics>

#include "app_settings.hpp"
#include "capture/source_spec.hpp"

namespace convolab::gui {

RecentSourcesMenu::RecentSourcesMenu(AppSettings* settings, QWidget* parent)
    : QMenu(tr("Open &Recent"), parent), m_settings(settings) {
  setObjectName(QStringLiteral("recentMenu"));
  setToolTipsVisible(true);
  connect(this, &QMenu::aboutToShow, this, &RecentSourcesMenu::rebuild);
  rebuild();
}

void RecentSourcesMenu::rebuild() {
  clear();
  const QStringList recent = m_settings->recentSources();
  if (recent.isEmpty()) {
    addAction(tr("(nothing opened yet)"))->setEnabled(false);
    return;
  }
  const QFontMetrics metrics(font());
  int n = 0;
  for (const QString& spec : recent) {
    const bool missing = capture::namesFile(spec.toStdString()) && !QFileInfo(spec).isFile();
    QString text = metrics.elidedText(QDir::toNativeSeparators(spec), Qt::ElideMiddle, 420);
    text.replace(QLatin1Char('&'), QStringLiteral("&&"));
    if (n < 9) text = QStringLiteral("&%1  %2").arg(n + 1).arg(text);
    if (missing) text += tr("  (missing)");
    QAction* a = addAction(text);
    a->setData(spec);
    a->setToolTip(missing ? tr("%1 no longer exists").arg(spec) : spec);
    a->setEnabled(!missing);
    connect(a, &QAction::triggered, this, [this, spec] { emit openRequested(spec); });
    ++n;
  }
  addSeparator();
  QAction* clearAll = addAction(tr("&Clear Menu"));
  clearAll->setObjectName(QStringLiteral("clearRecent"));
  connect(clearAll, &QAction::triggered, this, [this] {
    m_settings->set(AppSettings::kRecentSources, QStringList());
    rebuild();
  });
}

}  // namespace convolab::gui
