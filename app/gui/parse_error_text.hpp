// SPDX-License-Identifier: MIT
// describeParseError: a filter parser's message as a sentence for the editor's message line.
#pragma once

#include <QString>

namespace convolab::gui {

/// "…: line 3, column 5: 'x' is not a finite number" → prefix + "Line 3, column 5: 'x' is not a finite
/// number"; a message without a position loses only its "<clipboard>: " source (it says nothing to a person
/// who just pasted).
QString describeParseError(const QString& message, const QString& prefix);

}  // namespace convolab::gui
