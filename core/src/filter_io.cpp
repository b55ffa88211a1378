// SPDX-License-Identifier: MIT
// Filter files: JSON (saved format) and plain text (copy/paste).
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

std::string formatNumber(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

// A line of numbers uses decimal commas ("0,5 0,25") when it separates with ';', when it separates with
// blanks and every comma sits between two digits, or when it is one number with one comma ("0,5": read as a
// cell reads it, parseFilterNumber with decimalComma). Otherwise commas separate ("1, 2, 1" or "1,2,1").
bool usesDecimalComma(std::string_view line) {
  if (line.find(',') == std::string_view::npos) return false;
  if (line.find(';') != std::string_view::npos) return true;
  const auto first = line.find_first_not_of(" \t\r");
  const auto last = line.find_last_not_of(" \t\r");
  if (first == std::string_view::npos) return false;
  const std::string_view body = line.substr(first, last - first + 1);
  if (body.find_first_of(" \t") == std::string_view::npos)
    return std::count(body.begin(), body.end(), ',') == 1;  // two numbers on one line are never a filter
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (size_t i = 0; i < body.size(); ++i)
    if (body[i] == ',' && (i == 0 || i + 1 >= body.size() || !digit(body[i - 1]) || !digit(body[i + 1])))
      return false;
  return true;
}

std::optional<double> parsePlainNumber(std::string_view t) {
  if (!t.empty() && t.front() == '+') {
    t.remove_prefix(1);
    if (!t.empty() && (t.front() == '+' || t.front() == '-')) return std::nullopt;  // "+-1", "++1"
  }
  if (t.empty()) return std::nullopt;
  double v = 0;
  const auto res = std::from_chars(t.data(), t.data() + t.size(), v);
  if (res.ec != std::errc() || res.ptr != t.data() + t.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

FilterSet parseFilterJson(std::string_view text, std::string_view source) {
  json doc = parseStrictJson(text, source);
  if (!doc.is_object()) fail(source, "", "expected a JSON object with a \"matrix\" or \"channels\"");
  rejectUnknownKeys(doc,
                    {"name", "description", "border", "border_value", "matrix", "divisor", "offset",
                     "channels", "generator"},
                    source, "");

  std::string name;
  if (doc.contains("name")) {
    if (!doc["name"].is_string()) fail(source, "name", "expected a string");
    name = doc["name"].get<std::string>();
    // One line of text, printed in messages and titles: a control character (ESC, newline) would act there.
    if (const auto at = firstControlCharacter(name))
      fail(source, "name",
           "contains the control character " + printablePath(name.substr(*at, 1)) + " at position " +
               std::to_string(*at + 1) + "; a name is one line of printable text");
  }
  BorderMode border = BorderMode::Reflect101;
  if (doc.contains("border")) {
    const json& b = doc["border"];
    auto mode = b.is_string() ? parseBorder(b.get<std::string>()) : std::nullopt;
    if (!mode)
      fail(source, "border",
           "unknown border mode " + b.dump() + "; expected replicate, reflect, reflect101, wrap or constant");
    border = *mode;
  }
  std::array<double, kChannels> borderValue{0, 0, 0};
  if (doc.contains("border_value")) {
    const json& bv = doc["border_value"];
    if (bv.is_number()) {
      borderValue.fill(number(bv, source, "border_value"));
    } else {
      if (!bv.is_array() || bv.size() != 3)
        fail(source, "border_value", "expected a number or an array of 3 numbers");
      for (size_t c = 0; c < 3; ++c)
        borderValue[c] = number(bv[c], source, "border_value[" + std::to_string(c) + "]");
    }
  }

  std::optional<ChannelFilter> common;
  if (doc.contains("matrix")) {
    common = parseMatrix(doc["matrix"], source, "matrix");
    parseScalars(doc, *common, source, "");
  } else if (doc.contains("divisor") || doc.contains("offset")) {
    fail(source, "matrix", "missing: a top-level divisor/offset needs a top-level matrix");
  }

  std::array<std::optional<ChannelFilter>, kChannels> perChannel;
  if (doc.contains("channels")) {
    const json& ch = doc["channels"];
    if (!ch.is_object()) fail(source, "channels", "expected an object with keys r, g, b");
    rejectUnknownKeys(ch, {"r", "g", "b"}, source, "channels.");
    for (int c = 0; c < kChannels; ++c) {
      const std::string key = kChannelKeys[c];
      if (!ch.contains(key)) continue;
      const json& e = ch[key];
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
      perChannel[static_cast<size_t>(c)] = f;
    }
  }

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
  // Every channel must have the size of the top-level matrix (or of channel r when there is none).
  const int expected = common ? common->size : channels[0].size;
  for (int c = 0; c < kChannels; ++c) {
    const int k = channels[static_cast<size_t>(c)].size;
    if (k != expected)
      fail(source, std::string("channels.") + kChannelKeys[c] + ".matrix",
           "is " + std::to_string(k) + "x" + std::to_string(k) + "; all channels must have the same size (" +
               std::to_string(expected) + "x" + std::to_string(expected) + ")");
  }
  std::optional<GeneratorParams> generator;  // issue 31: what made the matrix, to make it again
  if (doc.contains("generator")) generator = parseGeneratorJson(doc["generator"], expected, source);
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

std::optional<double> parseFilterNumber(std::string_view token, bool decimalComma) {
  auto trim = [](std::string_view t) {
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r')) t.remove_suffix(1);
    return t;
  };
  std::string text(trim(token));
  if (decimalComma && text.find('.') == std::string::npos)
    for (char& c : text)
      if (c == ',') c = '.';
  const auto slash = text.find('/');
  if (slash == std::string::npos) return parsePlainNumber(text);
  const auto num = parsePlainNumber(trim(std::string_view(text).substr(0, slash)));
  const auto den = parsePlainNumber(trim(std::string_view(text).substr(slash + 1)));
  if (!num || !den || *den == 0.0) return std::nullopt;
  const double v = *num / *den;
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

std::string toImageJKernelText(const FilterSet& filter) {
  const ChannelFilter& f = filter.channel(0);
  std::string out;
  for (int j = 0; j < f.size; ++j) {
    for (int i = 0; i < f.size; ++i) out += (i ? "\t" : "") + formatNumber(f.at(j, i) / f.divisor);
    out += "\n";
  }
  return out;
}

FilterSet parseFilterText(std::string_view text, const FilterSet& base, std::string_view source) {
  struct Block {
    std::vector<std::vector<double>> rows;
    std::optional<double> divisor, offset;
    int firstLine = 0;
  };
  std::array<std::optional<Block>, kChannels> blocks;
  Block single;
  int current = -1;  // -1: the single block (no headers yet)
  bool sawHeader = false;

  auto where = [&](int line, int col) {
    return std::string(source) + ": line " + std::to_string(line) +
           (col > 0 ? ", column " + std::to_string(col) : "");
  };
  // Bounded as a file, each block and row by the largest filter: a few KiB kept whatever is pasted.
  if (text.size() > kMaxFilterFileBytes)
    throw Error(ErrorKind::BadInput, std::string(source) + ": " + std::to_string(text.size()) +
                                         " bytes; a filter's text is at most 1 MiB");
  constexpr std::size_t kMaxRowNumbers = kMaxFilterSize * kMaxFilterSize;  // the one-line form
  std::istringstream in{std::string(text)};
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    std::string trimmed = line.substr(first);
    while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t' || trimmed.back() == '\r'))
      trimmed.pop_back();
    std::string lower = trimmed;
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));

    if (lower == "r:" || lower == "g:" || lower == "b:") {
      const int c = lower[0] == 'r' ? 0 : lower[0] == 'g' ? 1 : 2;
      if (!single.rows.empty())
        throw Error(ErrorKind::BadInput, where(lineNo, 1) + ": channel header after rows without a header");
      if (blocks[static_cast<size_t>(c)])
        throw Error(ErrorKind::BadInput, where(lineNo, 1) + ": channel " + trimmed + " given twice");
      blocks[static_cast<size_t>(c)] = Block{};
      blocks[static_cast<size_t>(c)]->firstLine = lineNo;
      current = c;
      sawHeader = true;
      continue;
    }
    Block& block = current < 0 ? single : *blocks[static_cast<size_t>(current)];
    if (lower.rfind("divisor:", 0) == 0 || lower.rfind("offset:", 0) == 0) {
      const bool isDivisor = lower[0] == 'd';
      const std::string value = trimmed.substr(isDivisor ? 8 : 7);
      auto vfirst = value.find_first_not_of(" \t");
      const std::string_view token =
          vfirst == std::string::npos ? std::string_view() : std::string_view(value).substr(vfirst);
      const auto parsed = parseFilterNumber(token, /*decimalComma=*/true);
      const double v = parsed.value_or(0.0);
      if (!parsed)
        throw Error(ErrorKind::BadInput, where(lineNo, static_cast<int>(first + (isDivisor ? 9 : 8))) +
                                             ": '" + value + "' is not a finite number");
      if (isDivisor && v == 0.0)
        throw Error(ErrorKind::BadInput,
                    where(lineNo, static_cast<int>(first) + 1) + ": divisor must not be 0");
      (isDivisor ? block.divisor : block.offset) = v;
      continue;
    }
    std::vector<double> row;
    const bool decimalComma = usesDecimalComma(line);
    auto isSeparator = [&](char ch) {
      return ch == ' ' || ch == '\t' || ch == '\r' || ch == ';' || (ch == ',' && !decimalComma);
    };
    size_t pos = 0;
    while (pos < line.size()) {
      while (pos < line.size() && isSeparator(line[pos])) ++pos;
      if (pos >= line.size()) break;
      size_t end = pos;
      while (end < line.size() && !isSeparator(line[end])) ++end;
      const auto v = parseFilterNumber(std::string_view(line).substr(pos, end - pos), decimalComma);
      if (!v)
        throw Error(ErrorKind::BadInput, where(lineNo, static_cast<int>(pos) + 1) + ": '" +
                                             line.substr(pos, std::min<std::size_t>(end - pos, 40)) +
                                             (end - pos > 40 ? "..." : "") +
                                             "' is not a finite number (or fraction such as 1/9)");
      if (row.size() == kMaxRowNumbers)
        throw Error(ErrorKind::BadInput, where(lineNo, static_cast<int>(pos) + 1) + ": more than " +
                                             std::to_string(kMaxRowNumbers) + " numbers on one line");
      row.push_back(*v);
      pos = end;
    }
    if (block.rows.size() == static_cast<std::size_t>(kMaxFilterSize))
      throw Error(ErrorKind::BadInput, where(lineNo, 0) + ": more than " + std::to_string(kMaxFilterSize) +
                                           " rows; expected an odd number of rows from 1 to 15");
    if (block.rows.empty()) block.firstLine = lineNo;
    block.rows.push_back(std::move(row));
  }

  auto toChannel = [&](Block b, const char* label) {
    // K² numbers on one line (49 → 7×7), as spreadsheets and ImageJ's one-line form give them.
    if (b.rows.size() == 1 && b.rows[0].size() > 1) {
      const int n = static_cast<int>(b.rows[0].size());
      const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(n))));
      if (side * side == n && side % 2 == 1 && side <= kMaxFilterSize) {
        std::vector<std::vector<double>> rows;
        for (int j = 0; j < side; ++j)
          rows.emplace_back(b.rows[0].begin() + j * side, b.rows[0].begin() + (j + 1) * side);
        b.rows = std::move(rows);
      } else {
        throw Error(ErrorKind::BadInput,
                    where(b.firstLine, 0) + ": " + label + "one line of " + std::to_string(n) +
                        " numbers; expected K rows of K numbers, or K² numbers on one line (9, 25, 49, "
                        "81, … up to 3969 for 63×63)");
      }
    }
    const int k = static_cast<int>(b.rows.size());
    if (k == 0) throw Error(ErrorKind::BadInput, std::string(source) + ": " + label + "no matrix rows");
    if (k % 2 == 0 || k > kMaxFilterSize)
      throw Error(ErrorKind::BadInput, std::string(source) + ": " + label + std::to_string(k) +
                                           " rows; expected an odd number of rows from 1 to " +
                                           std::to_string(kMaxFilterSize));
    ChannelFilter f;
    f.size = k;
    f.matrix.clear();
    for (int j = 0; j < k; ++j) {
      if (static_cast<int>(b.rows[static_cast<size_t>(j)].size()) != k)
        throw Error(ErrorKind::BadInput, where(b.firstLine + j, 0) + ": " + label + "row " +
                                             std::to_string(j + 1) + " has " +
                                             std::to_string(b.rows[static_cast<size_t>(j)].size()) +
                                             " numbers; expected " + std::to_string(k));
      f.matrix.insert(f.matrix.end(), b.rows[static_cast<size_t>(j)].begin(),
                      b.rows[static_cast<size_t>(j)].end());
    }
    if (b.divisor) f.divisor = *b.divisor;
    if (b.offset) f.offset = *b.offset;
    return f;
  };

  std::array<ChannelFilter, kChannels> channels;
  if (!sawHeader) {
    channels.fill(toChannel(single, ""));
  } else {
    for (int c = 0; c < kChannels; ++c) {
      const char* labels[] = {"channel R: ", "channel G: ", "channel B: "};
      if (!blocks[static_cast<size_t>(c)])
        throw Error(ErrorKind::BadInput,
                    std::string(source) + ": " + labels[c] +
                        "missing (give R:, G: and B: blocks, or one block without headers)");
      channels[static_cast<size_t>(c)] = toChannel(*blocks[static_cast<size_t>(c)], labels[c]);
    }
  }
  try {
    return FilterSet::make(channels, base.border(), base.borderValue(), base.name());
  } catch (const Error& e) {
    throw Error(ErrorKind::BadInput, std::string(source) + ": " + e.what());
  }
}

std::string toFilterText(const FilterSet& filter) {
  std::string out;
  auto block = [&](const ChannelFilter& f) {
    for (int j = 0; j < f.size; ++j) {
      for (int i = 0; i < f.size; ++i) out += (i ? " " : "") + formatNumber(f.at(j, i));
      out += "\n";
    }
    if (f.divisor != 1.0) out += "divisor: " + formatNumber(f.divisor) + "\n";
    if (f.offset != 0.0) out += "offset: " + formatNumber(f.offset) + "\n";
  };
  if (filter.channelsIdentical()) {
    block(filter.channel(0));
  } else {
    const char* headers[] = {"R:\n", "G:\n", "B:\n"};
    for (int c = 0; c < kChannels; ++c) {
      out += headers[c];
      block(filter.channel(c));
    }
  }
  return out;
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
