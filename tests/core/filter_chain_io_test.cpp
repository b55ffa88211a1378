// SPDX-License-Identifier: MIT
// FilterChain and its files: the "steps" form round-trips, every one-filter file is a one-step chain, and
// each bad chain (empty, too long, a malformed step) is refused naming the step (docs/FILTER_FORMAT.md,
// Chains).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "convolab/error.hpp"
#include "convolab/filter_chain_io.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/reference.hpp"
#include "test_support.hpp"

namespace convolab {
namespace {

const char* const kSobelX = R"({"matrix": [[-1,0,1],[-2,0,2],[-1,0,1]]})";
const char* const kSobelY = R"({"matrix": [[-1,-2,-1],[0,0,0],[1,2,1]]})";

std::string chainOfSteps(int n) {
  std::string s = R"({"steps": [)";
  for (int i = 0; i < n; ++i) s += std::string(i ? "," : "") + R"({"matrix": [[1]]})";
  return s + "]}";
}

// Expects parseFilterChainJson to refuse `text` as a bad chain (Usage: exit 2) naming every needle.
void expectChainRejected(const std::string& text, std::initializer_list<std::string> needles) {
  try {
    parseFilterChainJson(text, "chain.json");
    ADD_FAILURE() << "accepted: " << text;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.what();
    const std::string msg = e.what();
    EXPECT_NE(msg.find("chain.json"), std::string::npos) << msg;
    for (const auto& n : needles)
      EXPECT_NE(msg.find(n), std::string::npos) << "'" << n << "' not in: " << msg;
  }
}

TEST(FilterChainJson, EveryOneFilterFileIsAOneStepChain) {
  const FilterSet f = test::randomFilter(5, BorderMode::Wrap, 7).withName("Random");
  const FilterChain c = parseFilterChainJson(toFilterJson(f));
  ASSERT_EQ(c.size(), 1);
  EXPECT_EQ(c.singleFilter(), f);
  EXPECT_EQ(c, FilterChain(f));
  EXPECT_EQ(toFilterChainJson(c), toFilterJson(f));  // written as before: older readers read it
  // A one-filter file's own errors stay what they were (BadInput: exit 3).
  EXPECT_THROW(
      {
        try {
          parseFilterChainJson(R"({"matrix": [[1,2],[3,4]]})");
        } catch (const Error& e) {
          EXPECT_EQ(e.kind(), ErrorKind::BadInput);
          throw;
        }
      },
      Error);
}

TEST(FilterChainJson, RoundTripsStepsMagnitudesAndSwitchedOffSteps) {
  const FilterSet a = test::randomFilter(3, BorderMode::Reflect, 1).withName("A");
  const FilterSet b7 = test::randomFilter(7, BorderMode::Reflect, 2);
  const FilterSet b =
      FilterSet::make(b7.channels(), a.border(), a.borderValue());  // a magnitude's pair: one border
  const FilterSet c = test::randomFilter(15, BorderMode::Constant, 3).withName("C");
  const FilterChain chain = FilterChain::make({ChainStep::single(a), ChainStep::magnitude(a, b, false),
                                               ChainStep::single(c, false), ChainStep::magnitude(b, a)},
                                              "Mixed");
  const std::string json = toFilterChainJson(chain);
  EXPECT_NE(json.find("\"steps\""), std::string::npos);
  EXPECT_EQ(parseFilterChainJson(json), chain);
  // One step that differs from the one-filter form (switched off) keeps the steps form.
  const FilterChain off = FilterChain::make({ChainStep::single(a, false)}, "A");
  EXPECT_EQ(parseFilterChainJson(toFilterChainJson(off)), off);
}

// The one-row-a-line pass of the filter writer once took "[ … ]" inside a name for a matrix row: chain files
// carry each step's filter through that writer (a one-step chain is a one-filter file), so their names too.
TEST(FilterChainJson, RoundTripsBracketsAndQuotesInNames) {
  const FilterSet a = test::randomFilter(3, BorderMode::Reflect, 1).withName("[[ing point ]] [1, 2 ]");
  const FilterSet c = test::randomFilter(5, BorderMode::Reflect, 3).withName("\"[ x ]\"");
  const FilterChain one = FilterChain::make({ChainStep::single(a)}, a.name());
  EXPECT_EQ(parseFilterChainJson(toFilterChainJson(one)), one);
  const FilterChain two = FilterChain::make({ChainStep::single(a), ChainStep::single(c)}, "[ chain ]");
  EXPECT_EQ(parseFilterChainJson(toFilterChainJson(two)), two);
}

TEST(FilterChainJson, ReadsTheDocumentedForm) {
  const FilterChain c = parseFilterChainJson(std::string(R"({"name": "Edges", "steps": [
      {"name": "Blur", "matrix": [[1,2,1],[2,4,2],[1,2,1]], "divisor": 16},
      {"magnitude": [)") + kSobelX + "," + kSobelY +
                                             R"(], "enabled": false}]})");
  ASSERT_EQ(c.size(), 2);
  EXPECT_EQ(c.name(), "Edges");
  EXPECT_EQ(c.steps()[0].filter.name(), "Blur");
  EXPECT_TRUE(c.steps()[0].enabled);
  EXPECT_TRUE(c.steps()[1].isMagnitude());
  EXPECT_FALSE(c.steps()[1].enabled);
  EXPECT_EQ(c.enabledSteps().size(), 1u);
  EXPECT_TRUE(c.singleFilter().has_value());  // one filter step on: runs as that filter
  EXPECT_EQ(c.totalRadius(), 1);
  EXPECT_EQ(parseFilterChainJson(chainOfSteps(8)).size(), 8);
}

TEST(FilterChainJson, RefusesBadChainsNamingTheStep) {
  expectChainRejected(R"({"steps": []})", {"no steps", "1 to 8"});
  expectChainRejected(chainOfSteps(9), {"9 steps", "at most 8"});
  expectChainRejected(R"({"steps": {"matrix": [[1]]}})", {"'steps'", "array"});
  expectChainRejected(R"({"steps": [{"matrix": [[1]]}, 3]})", {"step 2", "filter object"});
  expectChainRejected(R"({"steps": [{"matrix": [[1]]}, {"matrix": [[1,2],[3,4]]}]})",
                      {"step 2", "matrix", "odd"});
  expectChainRejected(R"({"steps": [{"matrix": [[1]], "divisor": 0}]})", {"step 1", "divisor"});
  expectChainRejected(R"({"steps": [{"matrix": [[1]], "enabled": "no"}]})",
                      {"step 1", "enabled", "true or false"});
  expectChainRejected(R"({"steps": [{"magnitude": [{"matrix": [[1]]}]}]})", {"step 1", "magnitude", "two"});
  expectChainRejected(R"({"steps": [{"magnitude": [{"matrix": [[1]]}, {"matirx": [[1]]}]}]})",
                      {"step 1: magnitude[1]", "matirx"});
  expectChainRejected(
      R"({"steps": [{"magnitude": [{"matrix": [[1]]}, {"matrix": [[1]]}], "matrix": [[1]]}]})",
      {"step 1", "'matrix'", "only"});
  expectChainRejected(
      R"({"steps": [{"matrix": [[1]]}, {"magnitude": [{"matrix": [[1]]}, {"matrix": [[1]], "border": "wrap"}]}]})",
      {"step 2", "same border"});
  expectChainRejected(R"({"matrix": [[1]], "steps": [{"matrix": [[1]]}]})", {"'matrix'", "each step"});
  expectChainRejected(R"({"name": 3, "steps": [{"matrix": [[1]]}]})", {"'name'", "string"});
  EXPECT_THROW(FilterChain::make({}), Error);
  EXPECT_THROW(FilterChain::make(std::vector<ChainStep>(9)), Error);
}

TEST(FilterChainText, SaysWhatTheTextFormCannotExpress) {
  const FilterSet a = parseFilterJson(kSobelX), b = parseFilterJson(kSobelY);
  EXPECT_EQ(chainExportLimitation(FilterChain(a)), std::nullopt);
  EXPECT_EQ(toFilterChainText(FilterChain(a)), toFilterText(a));
  const FilterChain chain = FilterChain::make({ChainStep::single(a, false), ChainStep::magnitude(a, b)});
  const auto why = chainExportLimitation(chain);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("holds one filter"), std::string::npos) << *why;
  EXPECT_NE(why->find("2 steps (1 magnitude step, 1 switched off)"), std::string::npos) << *why;
  EXPECT_NE(why->find("JSON"), std::string::npos) << *why;
  EXPECT_THROW(toFilterChainText(chain), Error);
}

// The chain presets (resources/presets/chains, installed with the others): each loads, is more than one
// filter, and maps a flat grey image to what its steps promise (kept, black edges, mid-grey band-pass).
TEST(ChainPresets, EveryChainPresetLoadsAndKeepsFlatAreasAsDocumented) {
  const std::map<std::string, int> flatGrey100To = {{"Sobel edges (magnitude)", 0},
                                                    {"Blur, then edges", 0},
                                                    {"Sharpen twice", 100},
                                                    {"Difference of Gaussians", 128}};
  std::map<std::string, int> seen;
  Image flat(9, 7);
  std::fill(flat.pixels.begin(), flat.pixels.end(), std::uint8_t{100});
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(CONVOLAB_SOURCE_DIR) + "/resources/presets/chains")) {
    SCOPED_TRACE(e.path().string());
    const FilterChain c = loadFilterChainFile(e.path());
    EXPECT_FALSE(c.singleFilter().has_value()) << "a chain preset is more than one filter";
    Image out(flat.width, flat.height);
    referenceChain(flat.view(), out.mutableView(), c);
    const auto [lo, hi] = std::minmax_element(out.pixels.begin(), out.pixels.end());
    EXPECT_EQ(*lo, *hi) << "a flat image stays flat";
    seen[c.name()] = *lo;
  }
  EXPECT_EQ(seen, flatGrey100To);
}

}  // namespace
}  // namespace convolab
