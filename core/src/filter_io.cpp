// SPDX-License-Identifier: MIT
// Filter files: the JSON form (saved format), reading and saving files. The text form is filter_text_io.cpp.
#include "convolab/filter_io.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <vector>

#include "convolab/atomic_file.hpp"
#include "convolab/error.hpp"
#include "convolab/printable_path.hpp"
#include "convolab/regular_file.hpp"
#include "generator_json.hpp"
#include "json_rows.hpp"
#include "strict_json.hpp"

namespace convolab {
namespace {

using nlohmann::json;

const char* const kChannelKeys[] = {"r", "g", "b"};

[[noreturn]] void fail(std::string_view source, const std::string& field, const std::string& what) {
  throw Error(ErrorKind::BadInput,
              std::string(source) + ": " + (field.empty() ? "" : "field '" + field + "': ") + what);
}

// Levenshtein distance, to suggest the key a typo meant.
int editDistance(std::string_view a, std::string_view b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

void rejectUnknownKeys(const json& obj, std::initializer_list<std::string_view> known,
                       std::string_view source, const std::string& prefix) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    std::string_view best;
    int bestDist = 3;
    for (std::string_view k : known) {
      if (it.key() == k) ok = true;
      const int d = editDistance(it.key(), k);
      if (d < bestDist) bestDist = d, best = k;
    }
    if (!ok) {
      std::string msg = "unknown key";
      if (!best.empty()) msg += " (did you mean '" + std::string(best) + "'?)";
      std::string expected;
      for (std::string_view k : known) expected += (expected.empty() ? "" : ", ") + std::string(k);
      fail(source, prefix + it.key(), msg + "; expected one of: " + expected);
    }
  }
}

double number(const json& v, std::string_view source, const std::string& field) {
  if (!v.is_number()) fail(source, field, "expected a number, got " + std::string(v.type_name()));
  const double d = v.get<double>();
  if (!std::isfinite(d)) fail(source, field, "expected a finite number");
  return d;
}

ChannelFilter parseMatrix(const json& m, std::string_view source, const std::string& field) {
  if (!m.is_array() || m.empty())
    fail(source, field,
         "expected a non-empty array of K rows (K odd, 1 to " + std::to_string(kMaxFilterSize) + ")");
  const int k = static_cast<int>(m.size());
  if (k % 2 == 0 || k > kMaxFilterSize)
    fail(source, field,
         std::to_string(k) + " rows; expected an odd number of rows from 1 to " +
             std::to_string(kMaxFilterSize));
  ChannelFilter f;
  f.size = k;
  f.matrix.clear();
  for (int j = 0; j < k; ++j) {
    const json& row = m[static_cast<size_t>(j)];
    const std::string rowField = field + "[" + std::to_string(j) + "]";
    if (!row.is_array()) fail(source, rowField, "expected an array of " + std::to_string(k) + " numbers");
    if (static_cast<int>(row.size()) != k)
      fail(source, rowField,
           "has " + std::to_string(row.size()) + " numbers; expected " + std::to_string(k) +
               " (a square matrix)");
    for (int i = 0; i < k; ++i)
      f.matrix.push_back(
          number(row[static_cast<size_t>(i)], source, rowField + "[" + std::to_string(i) + "]"));
  }
  return f;
}

void parseScalars(const json& obj, ChannelFilter& f, std::string_view source, const std::string& prefix) {
  if (obj.contains("divisor")) {
    f.divisor = number(obj["divisor"], source, prefix + "divisor");
    if (f.divisor == 0.0) fail(source, prefix + "divisor", "must not be 0");
  }
  if (obj.contains("offset")) f.offset = number(obj["offset"], source, prefix + "offset");
}

json matrixJson(const ChannelFilter& f) {
  json rows = json::array();
  for (int j = 0; j < f.size; ++j) {
    json row = json::array();
    for (int i = 0; i < f.size; ++i) row.push_back(f.at(j, i));
    rows.push_back(row);
  }
  return rows;
}

// "name": one line of printable text (it is printed in messages and titles).
std::string parseName(const json& doc, std::string_view source) {
  if (!doc.contains("name")) return {};
  if (!doc["name"].is_string()) fail(source, "name", "expected a string");
  std::string name = doc["name"].get<std::string>();
  // A control character (ESC, newline) would act where the name is printed.
  if (const auto at = firstControlCharacter(name))
    fail(source, "name",
         "contains the control character " + printablePath(name.substr(*at, 1)) + " at position " +
             std::to_string(*at + 1) + "; a name is one line of printable text");
  return name;
}

BorderMode parseBorderMode(const json& doc, std::string_view source) {
  if (!doc.contains("border")) return BorderMode::Reflect101;
  const json& b = doc["border"];
  auto mode = b.is_string() ? parseBorder(b.get<std::string>()) : std::nullopt;
  if (!mode)
    fail(source, "border",
         "unknown border mode " + b.dump() + "; expected replicate, reflect, reflect101, wrap or constant");
  return *mode;
}

// "border_value": one number for every channel, or three.
std::array<double, kChannels> parseBorderValue(const json& doc, std::string_view source) {
  std::array<double, kChannels> borderValue{0, 0, 0};
  if (!doc.contains("border_value")) return borderValue;
  const json& bv = doc["border_value"];
  if (bv.is_number()) {
    borderValue.fill(number(bv, source, "border_value"));
  } else {
    if (!bv.is_array() || bv.size() != 3)
      fail(source, "border_value", "expected a number or an array of 3 numbers");
    for (size_t c = 0; c < 3; ++c)
      borderValue[c] = number(bv[c], source, "border_value[" + std::to_string(c) + "]");
  }
  return borderValue;
}

// The top-level "matrix" with its divisor/offset: what every channel without an entry of its own uses.
std::optional<ChannelFilter> parseCommonFilter(const json& doc, std::string_view source) {
  std::optional<ChannelFilter> common;
  if (doc.contains("matrix")) {
    common = parseMatrix(doc["matrix"], source, "matrix");
    parseScalars(doc, *common, source, "");
  } else if (doc.contains("divisor") || doc.contains("offset")) {
    fail(source, "matrix", "missing: a top-level divisor/offset needs a top-level matrix");
  }
  return common;
}

// One entry under "channels": its own matrix, or the shared one with its divisor/offset overridden.
ChannelFilter parseChannelEntry(const json& e, const std::optional<ChannelFilter>& common,
                                std::string_view source, const std::string& key) {
  const std::string prefix = "channels." + key + ".";
  if (!e.is_object()) fail(source, "channels." + key, "expected an object with a \"matrix\"");
  rejectUnknownKeys(e, {"matrix", "divisor", "offset"}, source, prefix);
  ChannelFilter f;
  if (e.contains("matrix"))
    f = parseMatrix(e["matrix"], source, prefix + "matrix");
  else if (common)
    f = *common;  // divisor/offset override on the shared matrix
  else
    fail(source, prefix + "matrix", "missing, and there is no top-level matrix to inherit");
  if (!e.contains("matrix") && common) {
    parseScalars(e, f, source, prefix);
  } else {
    if (common && !e.contains("divisor")) f.divisor = common->divisor;
    if (common && !e.contains("offset")) f.offset = common->offset;
    parseScalars(e, f, source, prefix);
  }
  return f;
}

std::array<std::optional<ChannelFilter>, kChannels> parseChannelEntries(
    const json& doc, const std::optional<ChannelFilter>& common, std::string_view source) {
  std::array<std::optional<ChannelFilter>, kChannels> perChannel;
  if (!doc.contains("channels")) return perChannel;
  const json& ch = doc["channels"];
  if (!ch.is_object()) fail(source, "channels", "expected an object with keys r, g, b");
  rejectUnknownKeys(ch, {"r", "g", "b"}, source, "channels.");
  for (int c = 0; c < kChannels; ++c) {
    const std::string key = kChannelKeys[c];
    if (ch.contains(key))
      perChannel[static_cast<size_t>(c)] = parseChannelEntry(ch[key], common, source, key);
  }
  return perChannel;
}

// Each channel's own entry, else the shared matrix; all three of one size (the top-level matrix's, or channel
// r's when there is none).
std::array<ChannelFilter, kChannels> resolveChannels(
    const std::optional<ChannelFilter>& common,
    const std::array<std::optional<ChannelFilter>, kChannels>& perChannel, std::string_view source) {
  std::array<ChannelFilter, kChannels> channels;
  for (int c = 0; c < kChannels; ++c) {
    auto& pc = perChannel[static_cast<size_t>(c)];
    if (pc)
      channels[static_cast<size_t>(c)] = *pc;
    else if (common)
      channels[static_cast<size_t>(c)] = *common;
    else
      fail(source, "matrix",
           std::string("missing: channel ") + kChannelKeys[c] +
               " has no matrix (give a top-level \"matrix\")");
  }
  const int expected = common ? common->size : channels[0].size;
  for (int c = 0; c < kChannels; ++c) {
    const int k = channels[static_cast<size_t>(c)].size;
    if (k != expected)
      fail(source, std::string("channels.") + kChannelKeys[c] + ".matrix",
           "is " + std::to_string(k) + "x" + std::to_string(k) + "; all channels must have the same size (" +
               std::to_string(expected) + "x" + std::to_string(expected) + ")");
  }
  return channels;
}

}  // namespace

FilterSet parseFilterJson(std::string_view text, std::string_view source) {
  json doc = parseStrictJson(text, source);
  if (!doc.is_object()) fail(source, "", "expected a JSON object with a \"matrix\" or \"channels\"");
  rejectUnknownKeys(doc,
                    {"name", "description", "border", "border_value", "matrix", "divisor", "offset",
                     "channels", "generator"},
                    source, "");
  const std::string name = parseName(doc, source);
  const BorderMode border = parseBorderMode(doc, source);
  const std::array<double, kChannels> borderValue = parseBorderValue(doc, source);
  const std::optional<ChannelFilter> common = parseCommonFilter(doc, source);
  const auto channels = resolveChannels(common, parseChannelEntries(doc, common, source), source);
  std::optional<GeneratorParams> generator;  // issue 31: what made the matrix, to make it again
  if (doc.contains("generator")) generator = parseGeneratorJson(doc["generator"], channels[0].size, source);
  try {
    return FilterSet::make(channels, border, borderValue, name).withGenerator(generator);
  } catch (const Error& e) {
    fail(source, "", e.what());
  }
}

std::string toFilterJson(const FilterSet& filter) {
  json doc = json::object();
  doc["name"] = filter.name();
  doc["border"] = std::string(borderName(filter.border()));
  doc["border_value"] = filter.borderValue();
  if (filter.channelsIdentical()) {
    const ChannelFilter& f = filter.channel(0);
    doc["matrix"] = matrixJson(f);
    doc["divisor"] = f.divisor;
    doc["offset"] = f.offset;
  } else {
    json ch = json::object();
    for (int c = 0; c < kChannels; ++c) {
      const ChannelFilter& f = filter.channel(c);
      ch[kChannelKeys[c]] = {{"matrix", matrixJson(f)}, {"divisor", f.divisor}, {"offset", f.offset}};
    }
    doc["channels"] = ch;
  }
  if (filter.generator()) doc["generator"] = generatorJson(*filter.generator());
  return numberRowsOnOneLine(doc.dump(2)) + "\n";
}

std::string readFilterFileText(const std::filesystem::path& path) {
  return readRegularFileOrThrow(path, kMaxFilterFileBytes, "filter file");
}

FilterSet loadFilterFile(const std::filesystem::path& path) {
  const std::string text = readFilterFileText(path);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(ErrorKind::BadInput, printablePath(path) + ": the file is empty; expected a JSON filter");
  return parseFilterJson(text, printablePath(path));
}

void saveFilterFile(const std::filesystem::path& path, const FilterSet& filter, bool overwrite) {
  writeFileAtomically(path, toFilterJson(filter), overwrite);
}

}  // namespace convolab
