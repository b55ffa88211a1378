// SPDX-License-Identifier: MIT
// JSON parsed strictly for files people write: what nlohmann accepts silently (a key given twice, a NUL byte)
// is refused with a message that says where.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace convolab {

/// The JSON document in `text`. Throws Error(BadInput) "<source>: ..." for: not valid JSON, a NUL byte
/// anywhere, anything but blanks after the document, and a key given twice in one object (naming it, as
/// "channels.r.offset"). nlohmann itself would keep the last value of a repeated key without a word.
nlohmann::json parseStrictJson(std::string_view text, std::string_view source);

}  // namespace convolab
