// SPDX-License-Identifier: MIT
// Mirror Preview: the per-source choice in the settings, and the preview flag.
#include "mirror_preview.hpp"

#include <QAction>
#include <QSignalBlocker>
#include <QStringList>

#include "app_settings.hpp"
#include "preview_widget.hpp"

namespace convolab::gui {

namespace {

constexpr int kMaxRemembered = 32;

}  // namespace

MirrorPreview::MirrorPreview(Parts parts, QObject* parent) : QObject(parent), m_parts(std::move(parts)) {
  connect(m_parts.action, &QAction::toggled, this, &MirrorPreview::toggled);
}

void MirrorPreview::sourceChanged() {
  const QString spec = m_parts.spec();
  bool on = m_parts.traits().waitsForDevice;  // a camera: mirrored by default
  for (const QString& entry : m_parts.settings->value(QLatin1String(kSettingsKey)).toStringList())
    if (entry.section(QLatin1Char('\t'), 0, 0) == spec)
      on = entry.section(QLatin1Char('\t'), 1) == QLatin1String("1");
  const QSignalBlocker block(m_parts.action);
  m_parts.action->setChecked(on);
  m_parts.preview->setMirrored(on);
}

void MirrorPreview::toggled(bool on) {
  m_parts.preview->setMirrored(on);
  const QString spec = m_parts.spec();
  if (spec.isEmpty()) return;
  QStringList list = m_parts.settings->value(QLatin1String(kSettingsKey)).toStringList();
  list.erase(std::remove_if(list.begin(), list.end(),
                            [&](const QString& e) { return e.section(QLatin1Char('\t'), 0, 0) == spec; }),
             list.end());
  list.prepend(spec + QLatin1Char('\t') + (on ? QLatin1Char('1') : QLatin1Char('0')));
  while (list.size() > kMaxRemembered) list.removeLast();
  m_parts.settings->set(QLatin1String(kSettingsKey), list);
}

}  // namespace convolab::gui
