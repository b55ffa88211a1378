// SPDX-License-Identifier: MIT
// Mirror Preview: the per-source choice in the settings, and the preview flag.
#include "preview/mirror_preview.hpp"

#include <QAction>
#include <QSignalBlocker>

#include "app_settings.hpp"
#include "per_source_choice.hpp"
#include "preview/preview_widget.hpp"

namespace convolab::gui {

MirrorPreview::MirrorPreview(Parts parts, QObject* parent) : QObject(parent), m_parts(std::move(parts)) {
  connect(m_parts.action, &QAction::toggled, this, &MirrorPreview::toggled);
}

void MirrorPreview::sourceChanged() {
  // A camera (a device that waits to be plugged) is mirrored by default.
  const bool on = rememberedChoice(*m_parts.settings, AppSettings::kMirror, m_parts.spec())
                      .value_or(m_parts.traits().waitsForDevice);
  const QSignalBlocker block(m_parts.action);
  m_parts.action->setChecked(on);
  m_parts.preview->setMirrored(on);
}

void MirrorPreview::toggled(bool on) {
  m_parts.preview->setMirrored(on);
  rememberChoice(*m_parts.settings, AppSettings::kMirror, m_parts.spec(), on);
}

}  // namespace convolab::gui
