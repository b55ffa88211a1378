// SPDX-License-Identifier: MIT
// The plain-text filter form (copy/paste, .txt import, ImageJ kernels): parse and write. The JSON form is
// filter_io.cpp's; both are declared in convolab/filter_io.hpp (docs/FILTER_FORMAT.md).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "convolab/error.hpp"
#include "convolab/filter_io.hpp"

namespace convolab {
namespace {
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

namespace {

constexpr std::size_t kMaxRowNumbers = kMaxFilterSize * kMaxFilterSize;  // the one-line form

std::string lowerCase(std::string text) {
  for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return text;
}

// Reads the text form line by line into one block of rows per channel header (or one block without headers),
// then turns the blocks into channel filters.
class FilterTextReader {
 public:
  explicit FilterTextReader(std::string_view source) : m_source(source) {}

  void readLine(int lineNo, std::string line) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) return;
    std::string trimmed = line.substr(first);
    while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t' || trimmed.back() == '\r'))
      trimmed.pop_back();
    const std::string lower = lowerCase(trimmed);
    if (lower == "r:" || lower == "g:" || lower == "b:") return readHeader(lineNo, lower, trimmed);
    Block& block = m_current < 0 ? m_single : *m_blocks[static_cast<size_t>(m_current)];
    if (lower.rfind("divisor:", 0) == 0 || lower.rfind("offset:", 0) == 0)
      return readScalar(block, lineNo, first, lower[0] == 'd', trimmed);
    readRow(block, lineNo, line);
  }

  std::array<ChannelFilter, kChannels> channels() const {
    std::array<ChannelFilter, kChannels> channels;
    if (!m_sawHeader) {
      channels.fill(toChannel(m_single, ""));
      return channels;
    }
    for (int c = 0; c < kChannels; ++c) {
      const char* labels[] = {"channel R: ", "channel G: ", "channel B: "};
      if (!m_blocks[static_cast<size_t>(c)])
        throw Error(ErrorKind::BadInput,
                    std::string(m_source) + ": " + labels[c] +
                        "missing (give R:, G: and B: blocks, or one block without headers)");
      channels[static_cast<size_t>(c)] = toChannel(*m_blocks[static_cast<size_t>(c)], labels[c]);
    }
    return channels;
  }

 private:
  struct Block {
    std::vector<std::vector<double>> rows;
    std::optional<double> divisor, offset;
    int firstLine = 0;
  };

  std::string where(int line, int col) const {
    return std::string(m_source) + ": line " + std::to_string(line) +
           (col > 0 ? ", column " + std::to_string(col) : "");
  }

  // "R:", "G:" or "B:" starts that channel's block.
  void readHeader(int lineNo, const std::string& lower, const std::string& trimmed) {
    const int c = lower[0] == 'r' ? 0 : lower[0] == 'g' ? 1 : 2;
    if (!m_single.rows.empty())
      throw Error(ErrorKind::BadInput, where(lineNo, 1) + ": channel header after rows without a header");
    if (m_blocks[static_cast<size_t>(c)])
      throw Error(ErrorKind::BadInput, where(lineNo, 1) + ": channel " + trimmed + " given twice");
    m_blocks[static_cast<size_t>(c)] = Block{};
    m_blocks[static_cast<size_t>(c)]->firstLine = lineNo;
    m_current = c;
    m_sawHeader = true;
  }

  // "divisor: N" or "offset: N" (first: the column where the trimmed line starts).
  void readScalar(Block& block, int lineNo, std::size_t first, bool isDivisor, const std::string& trimmed) {
    const std::string value = trimmed.substr(isDivisor ? 8 : 7);
    auto vfirst = value.find_first_not_of(" \t");
    const std::string_view token =
        vfirst == std::string::npos ? std::string_view() : std::string_view(value).substr(vfirst);
    const auto parsed = parseFilterNumber(token, /*decimalComma=*/true);
    const double v = parsed.value_or(0.0);
    if (!parsed)
      throw Error(ErrorKind::BadInput, where(lineNo, static_cast<int>(first + (isDivisor ? 9 : 8))) + ": '" +
                                           value + "' is not a finite number");
    if (isDivisor && v == 0.0)
      throw Error(ErrorKind::BadInput,
                  where(lineNo, static_cast<int>(first) + 1) + ": divisor must not be 0");
    (isDivisor ? block.divisor : block.offset) = v;
  }

  // A row of numbers (or fractions), separated as usesDecimalComma decides.
  void readRow(Block& block, int lineNo, const std::string& line) {
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
                                           " rows; expected an odd number of rows from 1 to 63");
    if (block.rows.empty()) block.firstLine = lineNo;
    block.rows.push_back(std::move(row));
  }

  // K² numbers on one line (49 → 7×7), as spreadsheets and ImageJ's one-line form give them, become K rows.
  void unfoldOneLine(Block& b, const char* label) const {
    const int n = static_cast<int>(b.rows[0].size());
    const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(n))));
    if (side * side != n || side % 2 != 1 || side > kMaxFilterSize)
      throw Error(ErrorKind::BadInput,
                  where(b.firstLine, 0) + ": " + label + "one line of " + std::to_string(n) +
                      " numbers; expected K rows of K numbers, or K² numbers on one line "
                      "(9, 25, 49, 81, … up to 3969 for 63×63)");
    std::vector<std::vector<double>> rows;
    for (int j = 0; j < side; ++j)
      rows.emplace_back(b.rows[0].begin() + j * side, b.rows[0].begin() + (j + 1) * side);
    b.rows = std::move(rows);
  }

  ChannelFilter toChannel(Block b, const char* label) const {
    if (b.rows.size() == 1 && b.rows[0].size() > 1) unfoldOneLine(b, label);
    const int k = static_cast<int>(b.rows.size());
    if (k == 0) throw Error(ErrorKind::BadInput, std::string(m_source) + ": " + label + "no matrix rows");
    if (k % 2 == 0 || k > kMaxFilterSize)
      throw Error(ErrorKind::BadInput, std::string(m_source) + ": " + label + std::to_string(k) +
                                           " rows; expected an odd number of rows from 1 to " +
                                           std::to_string(kMaxFilterSize));
    ChannelFilter f;
    f.size = k;
    f.matrix.clear();
    for (int j = 0; j < k; ++j) {
      const std::vector<double>& row = b.rows[static_cast<size_t>(j)];
      if (static_cast<int>(row.size()) != k)
        throw Error(ErrorKind::BadInput, where(b.firstLine + j, 0) + ": " + label + "row " +
                                             std::to_string(j + 1) + " has " + std::to_string(row.size()) +
                                             " numbers; expected " + std::to_string(k));
      f.matrix.insert(f.matrix.end(), row.begin(), row.end());
    }
    if (b.divisor) f.divisor = *b.divisor;
    if (b.offset) f.offset = *b.offset;
    return f;
  }

  std::string_view m_source;
  std::array<std::optional<Block>, kChannels> m_blocks;
  Block m_single;
  int m_current = -1;  // -1: the single block (no headers yet)
  bool m_sawHeader = false;
};

}  // namespace

FilterSet parseFilterText(std::string_view text, const FilterSet& base, std::string_view source) {
  // Bounded as a file, each block and row by the largest filter: a few KiB kept whatever is pasted.
  if (text.size() > kMaxFilterFileBytes)
    throw Error(ErrorKind::BadInput, std::string(source) + ": " + std::to_string(text.size()) +
                                         " bytes; a filter's text is at most 1 MiB");
  FilterTextReader reader(source);
  std::istringstream in{std::string(text)};
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) reader.readLine(++lineNo, line);
  const std::array<ChannelFilter, kChannels> channels = reader.channels();
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

}  // namespace convolab
