// SPDX-License-Identifier: MIT
// log_categories.hpp — the app's Qt logging categories, and the core's log routed into them.
#pragma once

#include <QLoggingCategory>

namespace convolab::gui {

/// "convolab.core": the OpenCL core's notes and warnings (debug lines off unless
/// QT_LOGGING_RULES="convolab.core.debug=true" or CONVOLAB_VERBOSE is set).
Q_DECLARE_LOGGING_CATEGORY(lcCore)
/// "convolab.app": the app's own notes (settings reset on load, a --filter that could not be read).
Q_DECLARE_LOGGING_CATEGORY(lcApp)

/// Points the core's log sink (convolab/log.hpp) at lcCore, so its lines follow Qt's logging rules and
/// message handlers like the app's own. Call once, after the QApplication exists.
void routeCoreLogToQt();

}  // namespace convolab::gui
