// SPDX-License-Identifier: MIT
// describeParseError: a filter parser's message as a sentence for the editor's message line.
#pragma once

#include <QString>

namespace convolab::gui {

/// "…: line 3, column 5: 'x' is not a finite number" → prefix + "Line 3, column 5: 'x' is not a finite
/// number"; a message without a position loses only its "<clipboard>: " source (it says nothing to a person
/// who just pasted).
QString describeParseError(const QString& message, const QString& prefix);

/// `message` with the JSON parser's own wording ("[json.exception.parse_error.101] … syntax error while
/// parsing value - …") replaced by its position and what it found: "not valid JSON: at line 1, column 35:
/// unexpected '}'".
QString withoutParserJargon(const QString& message);

}  // namespace convolab::gui
