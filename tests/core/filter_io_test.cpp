// FilterSet JSON and text: round trips, override rules, and every rejection of DESIGN §2 with its message.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
  // 17x17 is too large.
  std::string big = "{\"matrix\": [";
  for (int j = 0; j < 17; ++j) big += std::string(j ? "," : "") + "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]";
  expectRejected(big + "]}", {"matrix", "17 rows"});
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

}  // namespace
}  // namespace convolab
