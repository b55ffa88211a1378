// SPDX-License-Identifier: MIT
// parseStrictJson: a NUL pre-pass, nlohmann's parser with a callback that notes repeated keys, and plain
// words for content after the document.
#include "strict_json.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "convolab/error.hpp"
#include "convolab/json_limits.hpp"

namespace convolab {
namespace {

using nlohmann::json;

[[noreturn]] void failJson(std::string_view source, const std::string& field, const std::string& what) {
  throw Error(ErrorKind::BadInput,
              std::string(source) + ": " + (field.empty() ? "" : "field '" + field + "': ") + what);
}

}  // namespace

json parseStrictJson(std::string_view text, std::string_view source) {
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    failJson(source, "", "contains a NUL byte at " + textPosition(text, nul) + "; a filter file is text");
  if (const auto problem = jsonLimitProblem(text))
    failJson(source, "", *problem + "; a filter file nests at most 5 levels");
  // Each open object keeps its keys and the key that named it; a full path is built only for a message,
  // so memory stays linear in the depth (a path per level was quadratic).
  struct Object {
    std::set<std::string> keys;
    std::string name;  // "r" inside "channels"; empty at the top and inside arrays
  };
  std::vector<Object> objects;
  std::string lastKey, duplicate;
  const auto pathTo = [&](const std::string& key) {
    std::string path;
    for (std::size_t i = 1; i < objects.size(); ++i) {
      if (objects[i].name.empty())
        path.clear();  // objects inside arrays are named by their parent only
      else
        path += objects[i].name + ".";
    }
    return path + key;
  };
  const json::parser_callback_t noteDuplicates = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) {
      objects.push_back({{}, objects.empty() ? std::string() : lastKey});
      lastKey.clear();
    } else if (event == json::parse_event_t::key) {
      lastKey = parsed.get<std::string>();
      if (!objects.empty() && !objects.back().keys.insert(lastKey).second && duplicate.empty())
        duplicate = pathTo(lastKey);
    } else if (event == json::parse_event_t::object_end) {
      if (!objects.empty()) objects.pop_back();
      lastKey.clear();
    } else if (event == json::parse_event_t::array_start) {
      lastKey.clear();
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
               "unexpected content after the JSON object at " + textPosition(text, e.byte - 1) +
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
