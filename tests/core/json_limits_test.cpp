// SPDX-License-Identifier: MIT
// Every parser's bounds (docs/RELIABILITY.md, "Parsers"): deep, wide and long inputs are refused quickly,
// with a message that says which bound, before anything large is built.
#include "convolab/json_limits.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "convolab/error.hpp"
#include "convolab/filter_io.hpp"

using namespace convolab;

namespace {

/// The message parse() throws, or "accepted".
template <typename Parse>
std::string refusal(Parse parse) {
  try {
    parse();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput) << e.what();
    return e.what();
  }
  return "accepted";
}

std::string repeated(std::string_view piece, std::size_t n) {
  std::string s;
  s.reserve(piece.size() * n);
  for (std::size_t i = 0; i < n; ++i) s += piece;
  return s;
}

}  // namespace

TEST(JsonLimits, ScanCountsOnlyStructureOutsideStrings) {
  EXPECT_FALSE(jsonLimitProblem(R"({"a": "[[[[{{{{", "b": [[1]]})", 3));
  EXPECT_FALSE(jsonLimitProblem(R"({"a\"[[[[": 1})", 1));  // an escaped quote does not end the string
  EXPECT_EQ(*jsonLimitProblem("{\n [[1]]}", 2), "nested deeper than 2 levels at line 2, column 3");
  EXPECT_FALSE(jsonLimitProblem("[1,2,3]", 64, 4));
  EXPECT_TRUE(jsonLimitProblem("[1,2,3,4]", 64, 4));
}

// 100,000 levels of arrays, and of objects (whose key paths once cost memory quadratic in the depth: 80,000
// levels took 6.7 GB), are refused in well under a second.
TEST(JsonLimits, DeepFilterJsonIsRefusedQuickly) {
  const auto start = std::chrono::steady_clock::now();
  const std::string arrays = repeated("[", 100'000) + repeated("]", 100'000);
  EXPECT_NE(refusal([&] { parseFilterJson(arrays, "deep.json"); }).find("nested deeper than 64 levels"),
            std::string::npos);
  // 3,000 object levels: enough to tell refused from parsed, few enough to parse without the bound.
  const std::string objects = repeated(R"({"a":)", 3'000) + "1" + repeated("}", 3'000);
  EXPECT_NE(refusal([&] { parseFilterJson(objects, "deep.json"); }).find("deep.json: nested deeper than 64"),
            std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST(JsonLimits, WideFilterJsonIsRefusedBeforeItIsBuilt) {
  const std::string wide = "{\"matrix\": [" + repeated("0,", 1'100'000) + "0]}";
  EXPECT_NE(refusal([&] { parseFilterJson(wide, "wide.json"); }).find("more than 1000000 values"),
            std::string::npos);
}

// The text form: a pasted block is bounded by the largest filter (15 rows, 225 numbers on a line) and 1 MiB,
// and a long token is quoted shortened.
TEST(JsonLimits, LongAndWideFilterTextIsRefused) {
  EXPECT_NE(refusal([&] {
              parseFilterText(repeated("0 ", 300'000), FilterSet(), "wide.txt");
            }).find("more than " + std::to_string(kMaxFilterSize * kMaxFilterSize) + " numbers on one line"),
            std::string::npos);
  EXPECT_NE(refusal([&] { parseFilterText(repeated("0\n", 100'000), FilterSet(), "long.txt"); })
                .find("line " + std::to_string(kMaxFilterSize + 1) + ": more than " +
                      std::to_string(kMaxFilterSize) + " rows"),
            std::string::npos);
  EXPECT_NE(refusal([&] {
              parseFilterText(repeated("\n", 2 << 20), FilterSet(), "big.txt");
            }).find("a filter's text is at most 1 MiB"),
            std::string::npos);
  const std::string token =
      refusal([&] { parseFilterText("1 x" + repeated("y", 100'000), FilterSet(), "t"); });
  EXPECT_LT(token.size(), 200u) << token.substr(0, 300);
}

// Issue 34.11: control characters in a filter's name were printed raw (an escape sequence acts on the
// terminal). A name is one line of printable text; UTF-8 is kept.
TEST(FilterJson, ControlCharactersInANameAreRefused) {
  const std::string matrix = R"(, "matrix": [[1]]})";
  for (const std::string& bad : {std::string("\\u001b[31mred"), std::string("two\\nlines"),
                                 std::string("tab\\t"), std::string("del\\u007f")}) {
    const std::string message =
        refusal([&] { parseFilterJson(R"({"name": ")" + bad + "\"" + matrix, "names.json"); });
    EXPECT_NE(message.find("field 'name': contains the control character"), std::string::npos) << message;
    EXPECT_EQ(message.find('\x1b'), std::string::npos) << "the message itself prints it escaped";
  }
  EXPECT_EQ(parseFilterJson(R"({"name": "Café – 3×3")" + matrix, "ok.json").name(), "Café – 3×3");
}
