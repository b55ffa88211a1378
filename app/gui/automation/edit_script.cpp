// SPDX-License-Identifier: MIT
// Parsing `--script` files: every field checked, every message naming the file, the action and the field.
#include "automation/edit_script.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "convolab/filter.hpp"
#include "convolab/filter_chain.hpp"
#include "convolab/filter_chain_io.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/generators.hpp"
#include "convolab/json_limits.hpp"
#include "convolab/registry.hpp"
#include "convolab/regular_file.hpp"

namespace convolab::gui {

namespace {

using Json = nlohmann::json;
constexpr std::uint64_t kMaxScriptBytes = 1 << 20;
constexpr std::string_view kKinds =
    "filter, cell, border, ksize, strategy, add_step, remove_step, toggle_step, run_chain or generator";

/// Builds the messages of one script: "<file>: actions[i]: \"field\" …".
class Problems {
 public:
  explicit Problems(const std::filesystem::path& path) : m_file(path.string()) {}
  [[noreturn]] void file(const std::string& what) const { throw EditScriptError(m_file + ": " + what); }
  [[noreturn]] void action(std::size_t index, const std::string& what) const {
    file("actions[" + std::to_string(index) + "]: " + what);
  }
  [[noreturn]] void field(std::size_t index, std::string_view name, const std::string& what) const {
    action(index, "\"" + std::string(name) + "\" " + what);
  }

 private:
  std::string m_file;
};

std::string shown(const Json& value) {
  std::string text = value.dump();
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

double finiteNumber(const Problems& problems, std::size_t index, std::string_view name, const Json& value) {
  if (!value.is_number() || !std::isfinite(value.get<double>()))
    problems.field(index, name, "must be a number, got " + shown(value));
  return value.get<double>();
}

std::string text(const Problems& problems, std::size_t index, std::string_view name, const Json& value) {
  if (!value.is_string()) problems.field(index, name, "must be a string, got " + shown(value));
  return value.get<std::string>();
}

int stepNumber(const Problems& problems, std::size_t index, std::string_view name, const Json& value) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < 1 ||
      value.get<std::int64_t>() > kMaxChainSteps)
    problems.field(index, name,
                   "must be a step number from 1 to " + std::to_string(kMaxChainSteps) +
                       " (as the Chain dock numbers them), got " + shown(value));
  return static_cast<int>(value.get<std::int64_t>());
}

/// "add_step", "remove_step", "toggle_step", "run_chain".
bool parseChainKind(const Problems& problems, std::size_t index, const std::string& kind, const Json& value,
                    const std::filesystem::path& folder, ScriptAction& action) {
  if (kind == "add_step") {
    action.kind = ScriptAction::Kind::AddStep;
    const std::filesystem::path given = text(problems, index, "add_step", value);
    if (given.empty()) problems.field(index, "add_step", "is empty: give a JSON filter or chain file");
    action.filterPath = given.is_absolute() ? given : folder / given;
    try {
      loadFilterChainFile(action.filterPath);
    } catch (const std::exception& e) {
      problems.field(index, "add_step", "cannot be loaded: " + std::string(e.what()));
    }
  } else if (kind == "remove_step" || kind == "toggle_step") {
    action.kind = kind == "remove_step" ? ScriptAction::Kind::RemoveStep : ScriptAction::Kind::ToggleStep;
    action.step = stepNumber(problems, index, kind, value);
  } else if (kind == "run_chain") {
    action.kind = ScriptAction::Kind::RunChain;
    if (!value.is_boolean()) problems.field(index, "run_chain", "must be true or false, got " + shown(value));
    action.on = value.get<bool>();
  } else {
    return false;
  }
  return true;
}

// `size`: the matrix size the editor has when this action runs (at least kScriptMinSize; known after a
// "ksize" or "filter" action).
void parseCell(const Problems& problems, std::size_t index, const Json& cell, int size,
               ScriptAction& action) {
  if (!cell.is_object())
    problems.field(index, "cell", "must be an object {channel, row, col, value[, step]}, got " + shown(cell));
  for (const auto& [key, _] : cell.items())
    if (key != "channel" && key != "row" && key != "col" && key != "value" && key != "step")
      problems.field(index, "cell." + key, "is not a field of a cell (channel, row, col, value, step)");
  if (cell.contains("step")) {
    action.step = stepNumber(problems, index, "cell.step", cell["step"]);
    size = kScriptMaxSize;  // a step's size is known when it runs (the editor refuses a cell outside it)
  }
  for (const char* required : {"channel", "row", "col", "value"})
    if (!cell.contains(required)) problems.field(index, std::string("cell.") + required, "is missing");
  const std::string channel = text(problems, index, "cell.channel", cell["channel"]);
  static constexpr std::string_view kChannelNames[] = {"r", "g", "b"};
  std::string lower = channel;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  const auto* found = std::find(std::begin(kChannelNames), std::end(kChannelNames), lower);
  if (found == std::end(kChannelNames))
    problems.field(index, "cell.channel", "must be \"r\", \"g\" or \"b\", got " + shown(cell["channel"]));
  action.channel = static_cast<int>(found - std::begin(kChannelNames));
  const std::string where = " (the matrix is " + std::to_string(size) + "x" + std::to_string(size) + " then)";
  const Json& row = cell["row"];
  const Json& col = cell["col"];
  if (!row.is_number_integer() || row.get<std::int64_t>() < 0 || row.get<std::int64_t>() >= size)
    problems.field(
        index, "cell.row",
        "must be a whole number from 0 to " + std::to_string(size - 1) + where + ", got " + shown(row));
  if (!col.is_number_integer() || col.get<std::int64_t>() < 0 || col.get<std::int64_t>() >= size)
    problems.field(
        index, "cell.col",
        "must be a whole number from 0 to " + std::to_string(size - 1) + where + ", got " + shown(col));
  action.row = static_cast<int>(row.get<std::int64_t>());
  action.col = static_cast<int>(col.get<std::int64_t>());
  action.value = finiteNumber(problems, index, "cell.value", cell["value"]);
}

// {"kind": "disk", "size": 31, "radius": 9}: what the generators panel makes (generators.hpp checks it).
void parseGenerator(const Problems& problems, std::size_t index, const Json& value, ScriptAction& action) {
  if (!value.is_object() || !value.contains("kind") || !value.contains("size"))
    problems.field(index, "generator", "must be an object {kind, size, parameters}, got " + shown(value));
  GeneratorParams& p = action.generator;
  p.kind = text(problems, index, "generator.kind", value["kind"]);
  const Json& size = value["size"];
  if (!size.is_number_integer() || size.get<std::int64_t>() < kScriptMinSize ||
      size.get<std::int64_t>() > kMaxFilterSize)
    problems.field(index, "generator.size",
                   "must be an odd whole number from " + std::to_string(kScriptMinSize) + " to " +
                       std::to_string(kMaxFilterSize) + ", got " + shown(size));
  p.size = static_cast<int>(size.get<std::int64_t>());
  const std::pair<const char*, double*> numbers[] = {{"sigma", &p.sigma},
                                                     {"radius", &p.radius},
                                                     {"length", &p.length},
                                                     {"angle", &p.angle},
                                                     {"lambda", &p.lambda}};
  for (const auto& [key, _] : value.items()) {
    if (key == "kind" || key == "size") continue;
    const auto* found =
        std::find_if(std::begin(numbers), std::end(numbers), [&](const auto& n) { return key == n.first; });
    if (found == std::end(numbers))
      problems.field(index, "generator." + key,
                     "is not a generator parameter (sigma, radius, length, angle, lambda)");
    *found->second = finiteNumber(problems, index, "generator." + key, value[key]);
  }
  try {
    generateKernel(p);
  } catch (const std::exception& e) {
    problems.field(index, "generator", e.what());
  }
}

void parseKind(const Problems& problems, std::size_t index, const std::string& kind, const Json& value,
               const std::filesystem::path& folder, int& size, ScriptAction& action) {
  if (kind == "filter") {
    action.kind = ScriptAction::Kind::Filter;
    const std::filesystem::path given = text(problems, index, "filter", value);
    if (given.empty()) problems.field(index, "filter", "is empty: give a JSON filter file");
    action.filterPath = given.is_absolute() ? given : folder / given;
    try {
      size = std::max(loadFilterFile(action.filterPath).size(), kScriptMinSize);
    } catch (const std::exception& e) {
      problems.field(index, "filter", "cannot be loaded: " + std::string(e.what()));
    }
  } else if (kind == "cell") {
    action.kind = ScriptAction::Kind::Cell;
    parseCell(problems, index, value, size, action);
  } else if (kind == "border") {
    action.kind = ScriptAction::Kind::Border;
    const auto border = parseBorder(text(problems, index, "border", value));
    if (!border)
      problems.field(index, "border",
                     "must be replicate, reflect, reflect101, wrap or constant, got " + shown(value));
    action.border = *border;
  } else if (kind == "ksize") {
    action.kind = ScriptAction::Kind::KSize;
    if (!value.is_number_integer() || value.get<std::int64_t>() % 2 == 0 ||
        value.get<std::int64_t>() < kScriptMinSize || value.get<std::int64_t>() > kScriptMaxSize)
      problems.field(index, "ksize",
                     "must be an odd whole number from " + std::to_string(kScriptMinSize) + " to " +
                         std::to_string(kScriptMaxSize) + " (as the editor's size control), got " +
                         shown(value));
    action.ksize = size = static_cast<int>(value.get<std::int64_t>());
  } else if (kind == "strategy") {
    action.kind = ScriptAction::Kind::Strategy;
    action.strategy = text(problems, index, "strategy", value);
    if (!findStrategy(action.strategy)) {
      std::string names;
      for (const auto& name : strategyNames()) names += (names.empty() ? "" : ", ") + name;
      problems.field(index, "strategy", "names no strategy: " + shown(value) + " (known: " + names + ")");
    }
  } else if (kind == "generator") {
    action.kind = ScriptAction::Kind::Generator;
    parseGenerator(problems, index, value, action);
    size = action.generator.size;
  } else if (!parseChainKind(problems, index, kind, value, folder, action)) {
    problems.action(index, "unknown action kind \"" + kind + "\" (expected " + std::string(kKinds) + ")");
  }
}

}  // namespace

std::string_view actionKindName(ScriptAction::Kind kind) {
  switch (kind) {
    case ScriptAction::Kind::Filter:
      return "filter";
    case ScriptAction::Kind::Cell:
      return "cell";
    case ScriptAction::Kind::Border:
      return "border";
    case ScriptAction::Kind::KSize:
      return "ksize";
    case ScriptAction::Kind::Strategy:
      return "strategy";
    case ScriptAction::Kind::AddStep:
      return "add_step";
    case ScriptAction::Kind::RemoveStep:
      return "remove_step";
    case ScriptAction::Kind::ToggleStep:
      return "toggle_step";
    case ScriptAction::Kind::RunChain:
      return "run_chain";
    case ScriptAction::Kind::Generator:
      return "generator";
  }
  return "?";
}

EditScript parseEditScript(const std::filesystem::path& path) {
  const Problems problems(path);
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) problems.file("cannot read the script: no such file");
  if (!std::filesystem::is_regular_file(status)) problems.file("cannot read the script: not a regular file");
  const auto content = readRegularFile(path, kMaxScriptBytes);
  if (!content) problems.file("cannot read the script (unreadable, or larger than 1 MiB)");
  return parseEditScriptText(*content, path);
}

EditScript parseEditScriptText(std::string_view content, const std::filesystem::path& path) {
  const Problems problems(path);
  // Bounded before parsing: a value nested 100,000 deep parsed fine but crashed the recursive dump() of a
  // message (and a scripted edit nests at most 4 levels).
  if (const auto problem = jsonLimitProblem(content)) problems.file("refused: " + *problem);
  Json root;
  try {
    root = Json::parse(content);
  } catch (const Json::parse_error& e) {
    problems.file("not valid JSON: " + std::string(e.what()));
  }
  if (!root.is_object() || !root.contains("actions") || !root["actions"].is_array())
    problems.file("expected an object {\"actions\": [...]}");
  const Json& actions = root["actions"];
  if (actions.empty()) problems.file("\"actions\" is empty: give at least one action");

  EditScript script;
  script.path = path;
  const std::filesystem::path folder = path.parent_path();
  int size = kScriptMinSize;  // the editor's matrix is at least this large before any ksize/filter action
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const Json& entry = actions[i];
    if (!entry.is_object()) problems.action(i, "must be an object, got " + shown(entry));
    if (!entry.contains("at_ms"))
      problems.field(i, "at_ms", "is missing (milliseconds after the first frame)");
    ScriptAction action;
    action.atMs = finiteNumber(problems, i, "at_ms", entry["at_ms"]);
    if (action.atMs < 0) problems.field(i, "at_ms", "must not be negative, got " + shown(entry["at_ms"]));
    // At most a day: 3e9 ms overflowed the timer (the run never ended) and 1e17 the clock (applied at once).
    if (action.atMs > kMaxScriptAtMs)
      problems.field(i, "at_ms",
                     "must be at most " + std::to_string(static_cast<long long>(kMaxScriptAtMs)) +
                         " (a day), got " + shown(entry["at_ms"]));
    if (!script.actions.empty() && action.atMs <= script.actions.back().atMs)
      problems.field(i, "at_ms",
                     "must be larger than the previous action's (" + shown(actions[i - 1]["at_ms"]) +
                         "), got " + shown(entry["at_ms"]));
    std::vector<std::string> kinds;
    for (const auto& [key, _] : entry.items())
      if (key != "at_ms") kinds.push_back(key);
    if (kinds.empty()) problems.action(i, "names no action (one of " + std::string(kKinds) + ")");
    if (kinds.size() > 1)
      problems.action(i, "has \"" + kinds[0] + "\" and \"" + kinds[1] + "\": one action per entry");
    parseKind(problems, i, kinds[0], entry[kinds[0]], folder, size, action);
    script.actions.push_back(std::move(action));
  }
  return script;
}

}  // namespace convolab::gui
