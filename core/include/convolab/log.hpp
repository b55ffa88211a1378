// SPDX-License-Identifier: MIT
// Log sink of the core: where its notes and diagnostics go (stderr unless the CLI or the app sets one).
#pragma once

#include <functional>
#include <string_view>

namespace convolab {

enum class LogLevel { Debug, Note, Warning };

/// Receives each message of the core. Called from whichever thread logs; must be thread-safe.
using LogSink = std::function<void(LogLevel level, std::string_view message)>;

/// Replaces the sink (an empty function restores the default, which writes "convolab: <message>" lines
/// to stderr; Debug lines only with CONVOLAB_VERBOSE set). Returns the previous sink.
LogSink setLogSink(LogSink sink);

/// Sends one message to the current sink.
void logMessage(LogLevel level, std::string_view message);

}  // namespace convolab
