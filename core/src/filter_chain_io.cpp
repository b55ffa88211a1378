// SPDX-License-Identifier: MIT
// Filter chain files: the "steps" form, each step read by the one-filter parser.
#include "convolab/filter_chain_io.hpp"

#include <nlohmann/json.hpp>

#include "convolab/atomic_file.hpp"
#include "convolab/error.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/printable_path.hpp"
#include "custom_kernel_json.hpp"
#include "strict_json.hpp"

namespace convolab {
namespace {

using nlohmann::json;

[[noreturn]] void failChain(const std::string& where, const std::string& what) {
  throw Error(ErrorKind::Usage, where + ": " + what);
}

// One filter object of a step, read by parseFilterJson so a step accepts and refuses exactly what a file
// does.
FilterSet parseStepFilter(const json& obj, const std::string& where) {
  if (!obj.is_object()) failChain(where, "expected a filter object (with a \"matrix\" or \"channels\")");
  try {
    return parseFilterJson(obj.dump(), where);
  } catch (const Error& e) {
    throw Error(ErrorKind::Usage, e.what());  // already names the step and the field
  }
}

bool parseEnabled(const json& step, const std::string& where) {
  if (!step.contains("enabled")) return true;
  if (!step["enabled"].is_boolean()) failChain(where, "field 'enabled': expected true or false");
  return step["enabled"].get<bool>();
}

// {"custom": {...}} with the step's optional "name", "border", "border_value" and "enabled".
ChainStep parseCustomStep(const json& step, const std::string& where, bool enabled) {
  json carrier = {{"matrix", {{1}}}};
  for (auto it = step.begin(); it != step.end(); ++it) {
    if (it.key() == "custom" || it.key() == "enabled") continue;
    if (it.key() != "name" && it.key() != "border" && it.key() != "border_value")
      failChain(where, "field '" + it.key() +
                           "': a custom step holds \"custom\", \"name\", \"border\", \"border_value\" and "
                           "\"enabled\"");
    carrier[it.key()] = it.value();
  }
  const FilterSet border = parseStepFilter(carrier, where);
  ChainStep s = ChainStep::customCode(parseCustomKernelJson(step["custom"], where), border.border(),
                                      border.borderValue(), enabled);
  s.filter = border;  // keeps the step's name
  return s;
}

ChainStep parseStep(const json& step, const std::string& where) {
  if (!step.is_object())
    failChain(where, "expected a filter object, {\"magnitude\": [filterA, filterB]} or {\"custom\": {...}}");
  const bool enabled = parseEnabled(step, where);
  if (step.contains("custom")) return parseCustomStep(step, where, enabled);
  if (step.contains("magnitude")) {
    for (auto it = step.begin(); it != step.end(); ++it)
      if (it.key() != "magnitude" && it.key() != "enabled")
        failChain(where,
                  "field '" + it.key() + "': a magnitude step holds only \"magnitude\" and \"enabled\"");
    const json& m = step["magnitude"];
    if (!m.is_array() || m.size() != 2)
      failChain(where, "field 'magnitude': expected an array of two filter objects");
    return ChainStep::magnitude(parseStepFilter(m[0], where + ": magnitude[0]"),
                                parseStepFilter(m[1], where + ": magnitude[1]"), enabled);
  }
  json filter = step;
  filter.erase("enabled");
  return ChainStep::single(parseStepFilter(filter, where), enabled);
}

json filterObject(const FilterSet& f) {
  return json::parse(toFilterJson(f));
}

json stepObject(const ChainStep& s) {
  if (s.isMagnitude()) return json{{"magnitude", {filterObject(s.filter), filterObject(*s.other)}}};
  if (!s.isCustom()) return filterObject(s.filter);
  json step = {{"custom", customKernelJson(*s.custom)}};
  const json carrier = filterObject(s.filter);  // the border fields as a filter writes them
  for (const char* key : {"name", "border", "border_value"})
    if (carrier.contains(key) && !(key == std::string("name") && carrier[key] == ""))
      step[key] = carrier[key];
  return step;
}

}  // namespace

FilterChain parseFilterChainJson(std::string_view text, std::string_view source) {
  const json doc = parseStrictJson(text, source);
  if (!doc.is_object() || !doc.contains("steps")) return FilterChain(parseFilterJson(text, source));
  const std::string src(source);
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (it.key() != "steps" && it.key() != "name" && it.key() != "description")
      failChain(src,
                "field '" + it.key() +
                    "': a chain file holds \"name\", \"description\" and \"steps\"; each step holds its own "
                    "filter");
  std::string name;
  if (doc.contains("name")) {
    if (!doc["name"].is_string()) failChain(src, "field 'name': expected a string");
    name = doc["name"].get<std::string>();
  }
  const json& steps = doc["steps"];
  if (!steps.is_array()) failChain(src, "field 'steps': expected an array of 1 to 8 steps");
  if (steps.empty()) failChain(src, "field 'steps': the chain has no steps; expected 1 to 8");
  if (steps.size() > static_cast<size_t>(kMaxChainSteps))
    failChain(src, "field 'steps': " + std::to_string(steps.size()) + " steps; a chain has at most " +
                       std::to_string(kMaxChainSteps));
  std::vector<ChainStep> parsed;
  for (size_t i = 0; i < steps.size(); ++i)
    parsed.push_back(parseStep(steps[i], src + ": step " + std::to_string(i + 1)));
  try {
    return FilterChain::make(std::move(parsed), name);
  } catch (const Error& e) {
    failChain(src, e.what());
  }
}

std::string toFilterChainJson(const FilterChain& chain) {
  const auto& steps = chain.steps();
  if (steps.size() == 1 && steps[0].enabled && !steps[0].isMagnitude() && !steps[0].isCustom() &&
      steps[0].filter.name() == chain.name())
    return toFilterJson(steps[0].filter);
  json doc = json::object();
  doc["name"] = chain.name();
  json list = json::array();
  for (const ChainStep& s : steps) {
    json step = stepObject(s);
    if (!s.enabled) step["enabled"] = false;
    list.push_back(step);
  }
  doc["steps"] = list;
  return doc.dump(2) + "\n";
}

std::optional<std::string> chainExportLimitation(const FilterChain& chain) {
  const auto& steps = chain.steps();
  if (steps.size() == 1 && steps[0].enabled && !steps[0].isMagnitude() && !steps[0].isCustom())
    return std::nullopt;
  int magnitudes = 0, customs = 0, off = 0;
  for (const ChainStep& s : steps)
    magnitudes += s.isMagnitude() ? 1 : 0, customs += s.isCustom() ? 1 : 0, off += s.enabled ? 0 : 1;
  std::string what;
  if (magnitudes > 0) what += std::to_string(magnitudes) + " magnitude step" + (magnitudes > 1 ? "s" : "");
  if (customs > 0)
    what += std::string(what.empty() ? "" : ", ") + std::to_string(customs) + " custom OpenCL step" +
            (customs > 1 ? "s" : "");
  if (off > 0) what += std::string(what.empty() ? "" : ", ") + std::to_string(off) + " switched off";
  return "the text form holds one filter; this chain has " + std::to_string(steps.size()) + " step" +
         (steps.size() > 1 ? "s" : "") + (what.empty() ? "" : " (" + what + ")") + ": save it as JSON";
}

std::string toFilterChainText(const FilterChain& chain) {
  if (auto why = chainExportLimitation(chain)) throw Error(ErrorKind::BadInput, *why);
  return toFilterText(chain.steps()[0].filter);
}

FilterChain loadFilterChainFile(const std::filesystem::path& path) {
  const std::string text = readFilterFileText(path);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(ErrorKind::BadInput, printablePath(path) + ": the file is empty; expected a JSON filter");
  return parseFilterChainJson(text, printablePath(path));
}

void saveFilterChainFile(const std::filesystem::path& path, const FilterChain& chain, bool overwrite) {
  writeFileAtomically(path, toFilterChainJson(chain), overwrite);
}

}  // namespace convolab
