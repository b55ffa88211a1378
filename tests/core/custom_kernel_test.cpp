// SPDX-License-Identifier: MIT
// Custom OpenCL steps (issue 36): validation, the wrapper, compiler messages on the user's lines, files, and
// the engine running one. The examples against OpenCV are in custom_examples_opencv_test.cpp; the trial in
// custom_trial_test.cpp.
#include <gtest/gtest.h>

#include "convolab/custom_kernel.hpp"
#include "convolab/engine.hpp"
#include "convolab/filter_chain_io.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

FilterChain customChain(const std::string& code, std::vector<CustomParam> params = {},
                        BorderMode border = BorderMode::Reflect101) {
  return FilterChain::make({ChainStep::customCode(CustomKernel::make(code, std::move(params)), border)},
                           "test");
}

TEST(CustomKernel, RefusesBadCodeAndParametersNamingThem) {
  EXPECT_THROW(CustomKernel::make("  \n"), Error);
  EXPECT_THROW(CustomKernel::make(std::string(kMaxCustomCodeBytes + 1, 'a')), Error);
  const auto refusal = [](std::vector<CustomParam> params) -> std::string {
    try {
      CustomKernel::make("return pixel(0, 0);", std::move(params));
    } catch (const Error& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_NE(refusal({{"2fast", 0, 1, 0}}).find("not a C identifier"), std::string::npos);
  EXPECT_NE(refusal({{"pixel", 0, 1, 0}}).find("taken"), std::string::npos);
  EXPECT_NE(refusal({{"float", 0, 1, 0}}).find("taken"), std::string::npos);
  EXPECT_NE(refusal({{"a", 1, 1, 1}}).find("below max"), std::string::npos);
  EXPECT_NE(refusal({{"a", 0, 1, 2}}).find("outside"), std::string::npos);
  EXPECT_NE(refusal({{"a", 0, 1, 0}, {"a", 0, 1, 0}}).find("two parameters"), std::string::npos);
  std::vector<CustomParam> nine;
  for (int i = 0; i < 9; ++i) nine.push_back({"p" + std::to_string(i), 0, 1, 0});
  EXPECT_NE(refusal(nine).find("at most 8"), std::string::npos);
  EXPECT_EQ(refusal({{"gain", 0, 2, 1}, {"level", 0, 255, 128}}), "accepted");
}

TEST(CustomKernel, WrapperNumbersTheUsersLinesFromOne) {
  const std::string source = wrapCustomKernelSource(
      CustomKernel::make("float3 p = pixel(0, 0);\nreturn p * gain;", {{"gain", 0, 2, 1}}));
  EXPECT_NE(source.find("#line 1 \"user\"\nfloat3 p = pixel(0, 0);\nreturn p * gain;\n"), std::string::npos);
  EXPECT_NE(source.find("const float gain = convolab_params.s0;"), std::string::npos);
  EXPECT_NE(source.find("__kernel void convolve_custom"), std::string::npos);
}

TEST(CustomKernel, ReadsEachCompilersMessageForm) {
  const auto clang = parseBuildDiagnostics(
      "user:3:12: error: use of undeclared identifier 'q'\n  return a * q;\n           ^\n"
      "user:1:7: warning: unused variable 'z'\n<built-in>:2:1: note: something\n");
  ASSERT_EQ(clang.size(), 2u);
  EXPECT_EQ(clang[0], (KernelDiagnostic{3, 12, true, "use of undeclared identifier 'q'"}));
  EXPECT_EQ(clang[1], (KernelDiagnostic{1, 7, false, "unused variable 'z'"}));
  const auto pocl =
      parseBuildDiagnostics("error: user:2:12: use of undeclared identifier 'q'\n1 error generated.\n");
  ASSERT_EQ(pocl.size(), 1u);
  EXPECT_EQ(pocl[0], (KernelDiagnostic{2, 12, true, "use of undeclared identifier 'q'"}));
  const auto edg = parseBuildDiagnostics("\"user\", line 4: error: identifier \"q\" is undefined\n");
  ASSERT_EQ(edg.size(), 1u);
  EXPECT_EQ(edg[0], (KernelDiagnostic{4, 0, true, "identifier \"q\" is undefined"}));
  // NVIDIA ignores #line: `<kernel>:N` counts lines of the whole wrapped source (seen on the H100, driver
  // 580.159.04). The span maps N back to the user's line.
  const CustomKernel two = CustomKernel::make("float3 a = pixel(0, 0);\nreturn a * q;");
  const CustomCodeSpan span = customCodeSpan(two);
  const std::string source = wrapCustomKernelSource(two);
  int n = 1;  // the whole source's line of `return a * q;`
  for (size_t i = 0; i < source.find("return a * q;"); ++i) n += source[i] == '\n';
  const auto nvidia = parseBuildDiagnostics(
      "<kernel>:" + std::to_string(n) + ":12: error: use of undeclared identifier 'q'\n", span);
  ASSERT_EQ(nvidia.size(), 1u);
  EXPECT_EQ(nvidia[0], (KernelDiagnostic{2, 12, true, "use of undeclared identifier 'q'"}));
  EXPECT_EQ(parseBuildDiagnostics("<kernel>:3:1: error: in the helpers\n", span).at(0).line, 0);
  // A message about the wrapper, not the user's code, has no line of theirs.
  EXPECT_EQ(parseBuildDiagnostics("wrapper:1:1: error: expected '}'\n").at(0).line, 0);
  // A log without a recognisable message still says something.
  EXPECT_EQ(parseBuildDiagnostics("\nsomething odd\n").at(0).message, "something odd");
}

TEST(CustomKernel, ChainFileRoundTripsCodeAndParameters) {
  const FilterChain chain = FilterChain::make(
      {ChainStep::customCode(
           CustomKernel::make("// gain\nreturn pixel(0, 0) * gain;\n", {{"gain", 0, 2, 1.5}}),
           BorderMode::Constant, {10, 20, 30}),
       ChainStep::single(FilterSet(), false)},
      "round trip");
  const std::string text = toFilterChainJson(chain);
  EXPECT_NE(text.find("\"return pixel(0, 0) * gain;\""), std::string::npos) << text;  // one string per line
  EXPECT_EQ(parseFilterChainJson(text), chain);
  EXPECT_TRUE(chainExportLimitation(chain)->find("1 custom OpenCL step") != std::string::npos);
}

TEST(CustomKernel, ChainFileRefusesABadCustomStepAsUsage) {
  const auto kindOf = [](const std::string& json) {
    try {
      parseFilterChainJson(json, "f.json");
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("f.json: step 1"), std::string::npos) << e.what();
      return e.kind();
    }
    return ErrorKind::Device;  // accepted: not what any case below expects
  };
  EXPECT_EQ(kindOf(R"({"steps": [{"custom": {"code": 3}}]})"), ErrorKind::Usage);
  EXPECT_EQ(kindOf(R"({"steps": [{"custom": {"code": "return 0;", "colour": 1}}]})"), ErrorKind::Usage);
  EXPECT_EQ(
      kindOf(R"({"steps": [{"custom": {"code": "x", "params": [{"name": "a", "min": 0, "max": 1}]}}]})"),
      ErrorKind::Usage);
  EXPECT_EQ(kindOf(R"({"steps": [{"custom": {"code": "x"}, "matrix": [[1]]}]})"), ErrorKind::Usage);
}

TEST(CustomKernel, EngineRunsTheCodeWithParametersCoordinatesAndTime) {
  Engine engine(sharedContext(), "naive");
  const Image in = randomImage(37, 23, 7);
  engine.setFrameTime(2.0);
  engine.setChain(customChain("return (float3)(255.0f - pixel(0, 0).x, x + gain, time * 10.0f);",
                              {{"gain", 0, 100, 50}}));
  const Image out = convolve(engine, in);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      const std::uint8_t* o = out.view().row(y) + 3 * x;
      ASSERT_EQ(o[0], 255 - in.view().row(y)[3 * x]) << x << "," << y;
      ASSERT_EQ(o[1], std::min(255, x + 50));
      ASSERT_EQ(o[2], 20);
    }
  EXPECT_EQ(engine.chainStepStrategies(), std::vector<std::string>{"custom"});
}

TEST(CustomKernel, NeighboursReadWithTheStepsBorder) {
  // pixel(-1, 0) at x = 0: reflect101 reads x = 1, constant reads the border value.
  const Image in = randomImage(9, 5, 3);
  for (BorderMode border : {BorderMode::Reflect101, BorderMode::Constant}) {
    Engine engine(sharedContext(), "naive");
    engine.setChain(FilterChain::make(
        {ChainStep::customCode(CustomKernel::make("return pixel(-1, 0);"), border, {7, 8, 9})}));
    const Image out = convolve(engine, in);
    const std::uint8_t* o = out.view().row(2);
    if (border == BorderMode::Constant)
      EXPECT_EQ(o[0], 7);
    else
      EXPECT_EQ(o[0], in.view().row(2)[3]);
  }
}

TEST(CustomKernel, CodeThatDoesNotBuildThrowsWithTheUsersLine) {
  Engine engine(sharedContext(), "naive");
  engine.setChain(customChain("float3 a = pixel(0, 0);\nreturn a * q;"));
  try {
    convolve(engine, randomImage(8, 8, 1));
    FAIL() << "built";
  } catch (const CustomKernelError& e) {
    ASSERT_FALSE(e.diagnostics().empty());
    EXPECT_EQ(e.diagnostics()[0].line, 2);
    EXPECT_NE(e.diagnostics()[0].message.find("'q'"), std::string::npos);
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
}

TEST(CustomKernel, RunsAsAStepOfAChainAndNeverFuses) {
  Engine engine(sharedContext(), "auto");
  engine.setChainFusion(ChainFusion::Fused);
  const FilterSet box =
      FilterSet::uniform(ChannelFilter{3, {1, 2, 1, 2, 4, 2, 1, 2, 1}, 16.0, 0.0});  // exact
  engine.setChain(FilterChain::make(
      {ChainStep::single(box), ChainStep::customCode(CustomKernel::make("return 255.0f - pixel(0, 0);"))}));
  const Image in = randomImage(40, 30, 5);
  const Image out = convolve(engine, in);
  const Image blurred = referenceOf(in, box);
  for (int y = 0; y < in.height; ++y)
    for (int i = 0; i < in.width * 3; ++i) ASSERT_EQ(out.view().row(y)[i], 255 - blurred.view().row(y)[i]);
  EXPECT_EQ(engine.chainStepStrategies().back(), "custom");
  EXPECT_NE(engine.chainStepStrategies().front(), "fused");
}

}  // namespace
}  // namespace convolab::test
