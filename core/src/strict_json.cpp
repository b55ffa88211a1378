// SPDX-License-Identifier: MIT
// parseStrictJson: a NUL pre-pass, nlohmann's parser with a callback that notes repeated keys, and plain
// words for content after the document.
#include "strict_json.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "convolab/error.hpp"

namespace convolab {
namespace {

using nlohmann::json;

[[noreturn]] void failJson(std::string_view source, const std::string& field, const std::string& what) {
  throw Error(ErrorKind::BadInput,
              std::string(source) + ": " + (field.empty() ? "" : "field '" + field + "': ") + what);
}

// "line L, column C" of byte `offset` (0-based) of `text`.
std::string positionOf(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const std::string_view before = text.substr(0, offset);
  const auto line = std::count(before.begin(), before.end(), '\n') + 1;
  const auto lineStart = before.rfind('\n');
  const auto column = offset - (lineStart == std::string_view::npos ? 0 : lineStart + 1) + 1;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace

json parseStrictJson(std::string_view text, std::string_view source) {
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    failJson(source, "", "contains a NUL byte at " + positionOf(text, nul) + "; a filter file is text");
  struct Object {
    std::set<std::string> keys;
    std::string path;  // "channels.r."
  };
  std::vector<Object> objects;
  std::string lastKey, duplicate;
  const json::parser_callback_t noteDuplicates = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) {
      objects.push_back(
          {{}, objects.empty() || lastKey.empty() ? std::string() : objects.back().path + lastKey + "."});
      lastKey.clear();
    } else if (event == json::parse_event_t::key) {
      lastKey = parsed.get<std::string>();
      if (!objects.empty() && !objects.back().keys.insert(lastKey).second && duplicate.empty())
        duplicate = objects.back().path + lastKey;
    } else if (event == json::parse_event_t::object_end) {
      if (!objects.empty()) objects.pop_back();
      lastKey.clear();
    } else if (event == json::parse_event_t::array_start) {
      lastKey.clear();  // objects inside arrays are not filter fields; name them by their parent only
    }
    return true;
  };
  json doc;
  try {
    doc = json::parse(text.begin(), text.end(), noteDuplicates);
  } catch (const json::parse_error& e) {
    const std::string what = e.what();
    if (what.find("; expected end of input") != std::string::npos)
      failJson(source, "",
               "unexpected content after the JSON object at " + positionOf(text, e.byte - 1) +
                   "; a filter file holds one JSON object");
    failJson(source, "", "not valid JSON: " + what);
  } catch (const json::out_of_range& e) {
    failJson(source, "", std::string("a number is out of range; expected finite numbers (") + e.what() + ")");
  } catch (const json::exception& e) {
    failJson(source, "", std::string("not valid JSON: ") + e.what());
  }
  if (!duplicate.empty())
    failJson(source, duplicate, "appears twice; each key may be given once (which value was meant?)");
  return doc;
}

}  // namespace convolab
