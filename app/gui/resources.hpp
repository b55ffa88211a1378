// SPDX-License-Identifier: MIT
// Registration of the embedded resources (icons, bundled sample, presets, the manual) compiled into the GUI
// library.
#pragma once

namespace convolab::gui {

/// Registers the Qt resources of the static GUI library (its initialisers are not linked in otherwise).
/// Safe to call more than once.
void initResources();

}  // namespace convolab::gui
