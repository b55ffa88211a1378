// SPDX-License-Identifier: MIT
// Flip Output: the per-source choice in the settings, and the output door's flip.
#include "outputs/flip_output.hpp"

#include <QAction>
#include <QSignalBlocker>

#include "app_settings.hpp"
#include "output/output_door.hpp"
#include "per_source_choice.hpp"

namespace convolab::gui {

FlipOutput::FlipOutput(Parts parts, bool onForRun, QObject* parent)
    : QObject(parent), m_parts(std::move(parts)), m_onForRun(onForRun) {
  connect(m_parts.action, &QAction::toggled, this, &FlipOutput::toggled);
  apply(m_onForRun);
}

void FlipOutput::sourceChanged() {
  apply(m_onForRun ||
        rememberedChoice(*m_parts.settings, AppSettings::kFlipOutput, m_parts.spec()).value_or(false));
}

void FlipOutput::apply(bool on) {
  const QSignalBlocker block(m_parts.action);
  m_parts.action->setChecked(on);
  m_parts.door->setFlipped(on);
}

void FlipOutput::toggled(bool on) {
  m_onForRun = false;  // the user's choice from now on, remembered for this source
  m_parts.door->setFlipped(on);
  rememberChoice(*m_parts.settings, AppSettings::kFlipOutput, m_parts.spec(), on);
  emit message(on ? tr("Flip Output on: saved frames, recordings and the virtual camera are flipped left to "
                       "right (the preview is not)")
                  : tr("Flip Output off: saved frames, recordings and the virtual camera are as computed"),
               5000);
}

}  // namespace convolab::gui
