// SPDX-License-Identifier: MIT
// A yes/no choice remembered per source (a camera by its stable id, a file by its path): View ▸ Mirror
// Preview (`view/mirror`) and View ▸ Flip Output (`output/flip`). Stored as a list of "SPEC<tab>1" /
// "SPEC<tab>0", newest first, at most kMaxRememberedChoices; AppSettings validates it on load.
#pragma once

#include <QString>
#include <QVariant>
#include <optional>

namespace convolab::gui {

class AppSettings;

inline constexpr int kMaxRememberedChoices = 32;

/// The choice remembered under `key` for `spec`, if any.
std::optional<bool> rememberedChoice(const AppSettings& settings, const QString& key, const QString& spec);
/// Remembers `on` for `spec` under `key` (first in the list; the oldest beyond kMaxRememberedChoices are
/// forgotten). An empty spec is not remembered.
void rememberChoice(AppSettings& settings, const QString& key, const QString& spec, bool on);
/// Why `value` is not such a list (empty: it is): not a list of text, too many entries, an entry without its
/// tab and 0 or 1, or a spec that is too long or holds control characters.
QString perSourceChoicesProblem(const QVariant& value);

}  // namespace convolab::gui
