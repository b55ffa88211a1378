// SPDX-License-Identifier: MIT
// The in-app reference of the custom kernel's helpers: one text, shown by the panel's help button (and as its
// tooltip), so what the app says about them is said in one place (kernels/custom.cl is the source).
#pragma once

#include <QString>

namespace convolab::gui {

/// Rich text: what the code is, the helpers and values it can use, the limits of a trial.
QString customKernelHelpText();

}  // namespace convolab::gui
