// SPDX-License-Identifier: MIT
// FilterSet JSON and text: round trips, override rules, and every rejection the filter format names
// (docs/FILTER_FORMAT.md), with its message.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <optional>
#include <vector>

#include "convolab/error.hpp"
#include "convolab/filter_io.hpp"
#include "test_support.hpp"

namespace convolab {
namespace {

// Expects parseFilterJson to reject `json` with a BadInput message containing every `needles`.
void expectRejected(const std::string& json, std::initializer_list<std::string> needles) {
  try {
    parseFilterJson(json, "bad.json");
    ADD_FAILURE() << "accepted: " << json;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bad.json"), std::string::npos) << msg;
    for (const auto& n : needles)
      EXPECT_NE(msg.find(n), std::string::npos) << "'" << n << "' not in: " << msg;
  }
}

TEST(FilterJson, RoundTripsRandomPerChannelFilters) {
  for (int k : {1, 3, 7, 15})
    for (BorderMode b : kAllBorderModes) {
      const FilterSet f = test::randomFilter(k, b, static_cast<uint32_t>(k));
      EXPECT_EQ(parseFilterJson(toFilterJson(f)), f);
    }
}

TEST(FilterJson, RoundTripsUniformFilter) {
  ChannelFilter c;
  c.size = 3;
  c.matrix = {-2, -1, 0, -1, 1, 1, 0, 1, 2};
  c.offset = 128;
  const FilterSet f = FilterSet::uniform(c, BorderMode::Replicate, "Emboss");
  const std::string json = toFilterJson(f);
  EXPECT_EQ(json.find("channels"), std::string::npos);  // written compactly
  EXPECT_EQ(parseFilterJson(json), f);
}

// Found by fuzz_filter_parsers: the writer's one-row-a-line pass took "[ a b ]" inside the name for a matrix
// row and dropped its spaces.
TEST(FilterJson, RoundTripsBracketsAndQuotesInTheName) {
  ChannelFilter c;
  c.size = 3;
  c.matrix = {0, 0, 0, 0, 1, 0, 0, 0, 0};
  const FilterSet f = FilterSet::uniform(c, BorderMode::Reflect101, "[[ing point ]] \"[1, 2 ]\" [x]");
  EXPECT_EQ(parseFilterJson(toFilterJson(f)), f);
}

TEST(FilterJson, ChannelEntriesOverrideTopLevel) {
  const FilterSet f = parseFilterJson(R"({"matrix": [[1]], "divisor": 2, "offset": 5,
      "channels": {"r": {"matrix": [[3]]}, "b": {"offset": 7}}})");
  EXPECT_EQ(f.channel(0).at(0, 0), 3);
  EXPECT_EQ(f.channel(0).divisor, 2);  // inherited
  EXPECT_EQ(f.channel(1).at(0, 0), 1);
  EXPECT_EQ(f.channel(2).offset, 7);
  EXPECT_EQ(f.channel(2).divisor, 2);
  EXPECT_EQ(f.border(), BorderMode::Reflect101);
}

TEST(FilterJson, RejectsWithFieldAndExpectation) {
  expectRejected("", {"not valid JSON"});
  expectRejected("{\"matrix\": [[1, 2, 3], [4, 5", {"not valid JSON"});
  expectRejected("[1, 2]", {"expected a JSON object"});
  expectRejected("{}", {"matrix", "missing"});
  expectRejected(R"({"matrix": [[1,2],[3,4]]})", {"matrix", "odd"});
  expectRejected(R"({"matrix": [[1,2,3],[4,5,6]]})", {"matrix", "odd"});
  expectRejected(R"({"matrix": [[1,2,3],[4,5],[7,8,9]]})", {"matrix[1]", "expected 3"});
  expectRejected(R"({"matrix": [[1,"x",3],[4,5,6],[7,8,9]]})", {"matrix[0][1]", "expected a number"});
  expectRejected(R"({"matrix": [[1]], "divisor": 0})", {"divisor", "not be 0"});
  expectRejected(R"({"matrix": [[1]], "border": "mirror"})", {"border", "reflect101"});
  expectRejected(R"({"matirx": [[1]]})", {"matirx", "did you mean 'matrix'"});
  expectRejected(R"({"matrix": [[1]], "channels": {"r": {"matrix": [[1,0,0],[0,1,0],[0,0,1]]}}})",
                 {"channels.r.matrix", "same size"});
  expectRejected(R"({"matrix": [[1]], "channels": {"x": {}}})", {"channels.x", "unknown key"});
  // 65x65 is too large (kMaxFilterSize is 63).
  std::string big = "{\"matrix\": [";
  std::string row = "[0";
  for (int i = 1; i < 65; ++i) row += ",0";
  for (int j = 0; j < 65; ++j) big += std::string(j ? "," : "") + row + "]";
  expectRejected(big + "]}", {"matrix", "65 rows"});
}

// A second value for one key used to win silently: say which key, where, and that it appears twice.
TEST(FilterJson, RejectsDuplicateKeys) {
  const std::string m = "[[0,0,0],[0,1,0],[0,0,0]]";
  expectRejected("{\"matrix\": " + m + ", \"matrix\": [[2]]}", {"'matrix'", "twice"});
  expectRejected("{\"matrix\": " + m + ", \"divisor\": 2, \"divisor\": 4}", {"'divisor'", "twice"});
  expectRejected(
      "{\"matrix\": " + m + ", \"channels\": {\"r\": {\"matrix\": " + m + ", \"offset\": 1, \"offset\": 2}}}",
      {"'channels.r.offset'", "twice"});
  expectRejected("{\"matrix\": " + m + ", \"channels\": {\"g\": {\"matrix\": " + m + "}, \"g\": {}}}",
                 {"'channels.g'", "twice"});
  // The same key in different objects is no duplicate.
  EXPECT_NO_THROW(parseFilterJson("{\"matrix\": " + m + ", \"channels\": {\"r\": {\"matrix\": " + m +
                                  "}, \"g\": {\"matrix\": " + m + "}}}"));
}

// Whatever follows the JSON object is a mistake (two filters pasted into one file, a stray NUL from a broken
// copy), not something to ignore.
TEST(FilterJson, RejectsNulAndTrailingContent) {
  const std::string good = "{\"matrix\": [[0,0,0],[0,1,0],[0,0,0]]}";
  EXPECT_NO_THROW(parseFilterJson(good + "\n\n  \t\r\n"));
  expectRejected(good + std::string(1, '\0'), {"NUL"});
  expectRejected(good + std::string(1, '\0') + "garbage", {"NUL"});
  const char inside[] = "{\"matrix\": [[1]]\0}";
  expectRejected(std::string(inside, sizeof inside - 1), {"NUL", "line 1, column 17"});
  expectRejected(good + " garbage", {"after the JSON", "line 1, column 39"});
  expectRejected(good + good, {"after the JSON"});
  expectRejected(good + "}", {"after the JSON"});
}

TEST(FilterJson, RejectsNonFiniteNumbers) {
  // JSON has no NaN/Inf literals; overflowing numbers parse to inf and must be refused.
  expectRejected(R"({"matrix": [[1e999]]})", {"finite"});
  EXPECT_THROW(FilterSet::uniform(ChannelFilter{1, {std::nan("")}, 1, 0}), Error);
}

TEST(FilterText, RoundTripsAndParsesForms) {
  const FilterSet f = test::randomFilter(5, BorderMode::Wrap, 9);
  EXPECT_EQ(parseFilterText(toFilterText(f), f), f);
  const FilterSet single = parseFilterText("1, 2, 1\n2\t4 2\n1 2 1\ndivisor: 16\n");
  EXPECT_TRUE(single.channelsIdentical());
  EXPECT_EQ(single.channel(2).divisor, 16);
  EXPECT_EQ(single.channel(1).at(1, 1), 4);
  const FilterSet per = parseFilterText("R:\n1\nG:\n2\noffset: 3\nB:\n4\n");
  EXPECT_EQ(per.channel(1).at(0, 0), 2);
  EXPECT_EQ(per.channel(1).offset, 3);
  EXPECT_EQ(per.channel(2).at(0, 0), 4);
}

TEST(FilterText, ErrorsNameLineAndColumn) {
  try {
    parseFilterText("1 2 3\n4 x 6\n7 8 9\n", FilterSet(), "clipboard");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("clipboard: line 2, column 3"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parseFilterText("1 2\n3 4\n"), Error);           // even size
  EXPECT_THROW(parseFilterText("1 2 3\n4 5\n7 8 9\n"), Error);  // ragged
  EXPECT_THROW(parseFilterText("R:\n1\nG:\n1\n"), Error);       // B missing
  EXPECT_THROW(parseFilterText("1\ndivisor: 0\n"), Error);      // divisor 0
  EXPECT_THROW(parseFilterText(""), Error);                     // nothing
}

TEST(FilterText, NumbersAsPeopleTypeThem) {
  // Fractions (webcamoid's factor form), decimal commas, signs; never a silent partial read.
  EXPECT_DOUBLE_EQ(*parseFilterNumber("1/9"), 1.0 / 9.0);
  EXPECT_DOUBLE_EQ(*parseFilterNumber("-2/16"), -0.125);
  EXPECT_DOUBLE_EQ(*parseFilterNumber(" 3 / 4 "), 0.75);
  EXPECT_DOUBLE_EQ(*parseFilterNumber("+2.5e-1"), 0.25);
  EXPECT_DOUBLE_EQ(*parseFilterNumber("0,5", true), 0.5);
  EXPECT_DOUBLE_EQ(*parseFilterNumber("-1,25/5", true), -0.25);
  EXPECT_FALSE(parseFilterNumber("0,5"));  // without decimalComma a comma is not part of a number
  EXPECT_FALSE(parseFilterNumber("1/0"));
  EXPECT_FALSE(parseFilterNumber("19x"));
  EXPECT_FALSE(parseFilterNumber("1//9"));
  EXPECT_FALSE(parseFilterNumber("1,000.5", true));  // a thousands separator is refused, not guessed
  EXPECT_FALSE(parseFilterNumber(""));
  EXPECT_FALSE(parseFilterNumber("nan"));
  EXPECT_FALSE(parseFilterNumber("++1"));
  EXPECT_FALSE(parseFilterNumber("+-1"));
}

// One rule for a number alone, whether typed into a cell (parseFilterNumber with decimal commas, as the
// editor's cells and spin boxes read it) or pasted as a 1×1 filter: both accept it with the same value, or
// both refuse it. A lone "0,5" pasted used to be refused as "one line of 2 numbers" while a cell read 0.5.
TEST(FilterText, ALoneNumberReadsAsACellReadsIt) {
  for (const std::string text : {"0,5", "-0,25", ",5", "5,", "1,5e1", "-1,25/5", "0.5", "1/9", "2", "-3e2",
                                 "1,2,1", "1,000.5", "0,5,", "1.5,2", "x", "1/0"}) {
    const auto cell = parseFilterNumber(text, /*decimalComma=*/true);
    std::optional<double> pasted;
    try {
      const FilterSet f = parseFilterText(text);
      if (f.size() == 1) pasted = f.channel(0).at(0, 0);
    } catch (const Error&) {
    }
    EXPECT_EQ(cell.has_value(), pasted.has_value()) << "'" << text << "'";
    if (cell && pasted) {
      EXPECT_DOUBLE_EQ(*cell, *pasted) << "'" << text << "'";
    }
  }
  EXPECT_DOUBLE_EQ(parseFilterText("0,5\n").channel(0).at(0, 0), 0.5);
  // A row of numbers keeps its comma separators: "1,2,1" is three numbers, "1,5 2" is not one.
  EXPECT_EQ(parseFilterText("1,2,1\n2,4,2\n1,2,1\n").channel(0).at(1, 1), 4);
  EXPECT_EQ(parseFilterText("R:\n0,5\nG:\n1\nB:\n-0,25\n").channel(2).at(0, 0), -0.25);
}

TEST(FilterText, FractionsDecimalCommasAndOneLineForms) {
  const FilterSet third = parseFilterText("1/9 1/9 1/9\n1/9 1/9 1/9\n1/9 1/9 1/9\n");
  EXPECT_DOUBLE_EQ(third.channel(0).at(2, 2), 1.0 / 9.0);
  // Blank-separated rows with decimal commas (a European spreadsheet), and ';'-separated ones.
  const FilterSet comma = parseFilterText("0,25\t0,5\t0,25\n0 1 0\n0,25;0,5;0,25\ndivisor: 1,5\n");
  EXPECT_EQ(comma.channel(0).at(0, 1), 0.5);
  EXPECT_EQ(comma.channel(0).at(2, 0), 0.25);
  EXPECT_EQ(comma.channel(0).divisor, 1.5);
  // Commas without blanks, or followed by a blank, still separate.
  EXPECT_EQ(parseFilterText("1,2,1\n2, 4, 2\n1,2,1\n").channel(0).at(1, 1), 4);
  // K² numbers on one line: 49 → 7×7, 9 → 3×3.
  std::string line;
  for (int i = 0; i < 49; ++i) line += std::to_string(i) + " ";
  const FilterSet seven = parseFilterText(line + "\n");
  EXPECT_EQ(seven.size(), 7);
  EXPECT_EQ(seven.channel(0).at(1, 0), 7);
  EXPECT_EQ(seven.channel(0).at(6, 6), 48);
  EXPECT_EQ(parseFilterText("0 -1 0 -1 5 -1 0 -1 0\n").channel(0).at(1, 1), 5);
  try {
    parseFilterText("1 2 3 4 5 6 7 8\n", FilterSet(), "clip");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("K² numbers on one line"), std::string::npos) << e.what();
  }
  // A typo never becomes a different number (1/9 once was read as 19).
  EXPECT_THROW(parseFilterText("1/9/2\n"), Error);
  EXPECT_THROW(parseFilterText("1/0\n"), Error);
}

TEST(FilterText, ImageJKernelRoundTrip) {
  // ImageJ kernel files are plain rows; export writes the weights (matrix / divisor), tab-separated.
  const FilterSet box = parseFilterText("1 1 1\n1 1 1\n1 1 1\ndivisor: 9\n");
  const std::string text = toImageJKernelText(box);
  EXPECT_EQ(text.find("divisor"), std::string::npos);
  EXPECT_NE(text.find('\t'), std::string::npos);
  const FilterSet back = parseFilterText(text);
  EXPECT_EQ(back.size(), 3);
  EXPECT_DOUBLE_EQ(back.channel(0).at(1, 1), 1.0 / 9.0);
  EXPECT_EQ(back.channel(0).divisor, 1.0);
}

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() / ("convolab-io-" + std::to_string(::getpid()));
    std::filesystem::create_directories(m_dir);
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }
  std::filesystem::path m_dir;
};

TEST_F(TempDir, SaveIsAtomicAndNeverOverwritesSilently) {
  const auto path = m_dir / "f.json";
  const FilterSet f = test::randomFilter(3, BorderMode::Reflect, 2);
  saveFilterFile(path, f, false);
  EXPECT_EQ(loadFilterFile(path), f);
  std::ofstream(path) << "user's precious content";
  EXPECT_THROW(saveFilterFile(path, f, false), Error);
  std::ifstream in(path);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(content, "user's precious content");
  saveFilterFile(path, f, true);
  EXPECT_EQ(loadFilterFile(path), f);
  // No temporary files left behind.
  int files = 0;
  for (auto& e : std::filesystem::directory_iterator(m_dir)) (void)e, ++files;
  EXPECT_EQ(files, 1);
}

TEST_F(TempDir, LoadErrorsNameTheFile) {
  const auto empty = m_dir / "empty.json";
  std::ofstream(empty).close();
  for (const auto& p : {empty, m_dir / "missing.json"}) {
    try {
      loadFilterFile(p);
      FAIL();
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(writeFileAtomically(m_dir / "no" / "such" / "dir.json", "x", false), Error);
}

// Expects `read` to throw Error(BadInput) whose message holds every needle.
template <typename Read>
void expectRefused(Read read, std::initializer_list<std::string> needles) {
  try {
    read();
    ADD_FAILURE() << "read";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    for (const auto& n : needles) EXPECT_NE(std::string(e.what()).find(n), std::string::npos) << e.what();
  }
}

TEST_F(TempDir, FilterFilesAreReadWholeOrRefused) {
  // A FIFO with no writer: a plain open() would block for good, so the read runs against a deadline.
  const auto fifo = m_dir / "fifo.txt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto read = std::async(std::launch::async, [&] {
    try {
      readFilterFileText(fifo);
      return std::string("read");
    } catch (const Error& e) {
      return std::string(e.what());
    }
  });
  ASSERT_EQ(read.wait_for(std::chrono::seconds(20)), std::future_status::ready) << "blocked on a FIFO";
  const std::string why = read.get();
  EXPECT_NE(why.find(fifo.string()), std::string::npos) << why;
  EXPECT_NE(why.find("FIFO"), std::string::npos) << why;
  expectRefused([&] { loadFilterFile(fifo); }, {fifo.string(), "FIFO"});
  expectRefused([&] { loadFilterFile(m_dir); }, {m_dir.string(), "folder"});

  // Over the limit: refused with the file and the limit named, never read in part (the divisor line that
  // sits past 1 MiB must not be lost).
  const auto big = m_dir / "big.txt";
  {
    std::ofstream out(big);
    out << "1 1 1\n1 1 1\n1 1 1\n";
    out << std::string(kMaxFilterFileBytes, '\n');
    out << "divisor: 16\n";
  }
  expectRefused([&] { readFilterFileText(big); },
                {big.string(), "1 MiB", std::to_string(std::filesystem::file_size(big))});
  const auto bigJson = m_dir / "big.json";
  std::filesystem::copy_file(big, bigJson);
  expectRefused([&] { loadFilterFile(bigJson); }, {bigJson.string(), "1 MiB"});

  // At the limit exactly: read whole.
  std::filesystem::resize_file(big, kMaxFilterFileBytes);
  EXPECT_EQ(readFilterFileText(big).size(), kMaxFilterFileBytes);
}

// A newline in a file name is escaped in messages: the message stays one line and names one file.
TEST_F(TempDir, NamesInMessagesAreOneLine) {
  const auto dup = m_dir / "bad\nname.json";
  std::ofstream(dup) << R"({"matrix": [[1]], "matrix": [[2]]})";
  const auto fifo = m_dir / "pipe\t\x01.txt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto existing = m_dir / "x\ny.json";
  std::ofstream(existing) << "{}";
  const std::string escapedDir = m_dir.string();  // plain characters: printed as they are
  for (const auto& [run, name] : std::vector<std::pair<std::function<void()>, std::string>>{
           {[&] { loadFilterFile(dup); }, "bad\\nname.json"},
           {[&] { readFilterFileText(fifo); }, "pipe\\t\\x01.txt"},
           {[&] { saveFilterFile(existing, FilterSet(), false); }, "x\\ny.json"}}) {
    try {
      run();
      ADD_FAILURE() << name << " accepted";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
      EXPECT_NE(msg.find(escapedDir + "/" + name), std::string::npos) << msg;
    }
  }
}

}  // namespace
}  // namespace convolab
