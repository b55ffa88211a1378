// SPDX-License-Identifier: MIT
// The trial of a custom OpenCL step in convolab-measure --trial (issue 36): a kernel that does not build,
// never ends, writes outside its output or is too slow is refused with a message that says which; one that
// behaves passes. The calling process never runs the code.
#include <gtest/gtest.h>

#include <chrono>

#include "convolab/config.hpp"
#include "convolab/custom_trial.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

/// Points the core at the convolab-measure this build made, for the life of a test.
class TrialConfig {
 public:
  TrialConfig() : m_saved(coreConfig()) {
    CoreConfig config = m_saved;
    config.measureProgram = CONVOLAB_MEASURE_PROGRAM_PATH;
    setCoreConfig(config);
  }
  ~TrialConfig() { setCoreConfig(m_saved); }

 private:
  CoreConfig m_saved;
};

TrialOutcome trial(const std::string& code, const TrialLimits& limits = {}) {
  const TrialConfig config;
  return trialCustomStep(*sharedContext(), ChainStep::customCode(CustomKernel::make(code)), 96, 64, limits);
}

TEST(CustomTrial, AKernelThatBehavesPassesWithItsTime) {
  const TrialOutcome t = trial("return 255.0f - pixel(0, 0);");
  EXPECT_TRUE(t.passed()) << t.message;
  EXPECT_GE(t.ms, 0);
  EXPECT_NE(t.message.find("96×64"), std::string::npos) << t.message;
}

TEST(CustomTrial, ASyntaxErrorIsRefusedOnItsLine) {
  const TrialOutcome t = trial("float3 a = pixel(0, 0);\nreturn a * q;");
  EXPECT_EQ(t.verdict, TrialOutcome::Verdict::BuildFailed) << t.message;
  ASSERT_FALSE(t.diagnostics.empty());
  EXPECT_EQ(t.diagnostics[0].line, 2);
  EXPECT_NE(t.message.find("line 2"), std::string::npos) << t.message;
}

TEST(CustomTrial, AnEndlessLoopIsStoppedWithinItsLimit) {
  TrialLimits limits;
  limits.runMs = 1500;
  const auto started = std::chrono::steady_clock::now();
  // Four billion steps a pixel whose result is used: no compiler can drop it (NVIDIA's dropped loops it could
  // prove endless, even one spinning on a volatile), and no frame ever finishes.
  const TrialOutcome t = trial(
      "float s = pixel(0, 0).x;\nfor (uint i = 0; i < 4000000000u; ++i) s = sin(s + (float)i);\n"
      "return (float3)(s);",
      limits);
  const double waited =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(t.verdict, TrialOutcome::Verdict::Hung) << t.message;
  EXPECT_NE(t.message.find("endless loop"), std::string::npos) << t.message;
  EXPECT_LT(waited, limits.buildMs);  // stopped after the runs' limit, not the build's
}

TEST(CustomTrial, AWriteOutsideTheOutputIsRefused) {
  // Casting away the input's const is the one way the code can reach memory to write.
  const TrialOutcome t = trial("((__global uchar*)convolab_src)[x * 3] = 1;\nreturn pixel(0, 0);");
  EXPECT_EQ(t.verdict, TrialOutcome::Verdict::WroteOutside) << t.message;
  EXPECT_NE(t.message.find("outside"), std::string::npos);
}

TEST(CustomTrial, AKernelOverTheBudgetIsRefusedWithItsTime) {
  TrialLimits limits;
  limits.budgetMs = 0.001;  // a microsecond: any real kernel is over it
  const TrialOutcome t = trial("return pixel(0, 0);", limits);
  EXPECT_EQ(t.verdict, TrialOutcome::Verdict::TooSlow) << t.message;
  EXPECT_NE(t.message.find("budget"), std::string::npos) << t.message;
}

TEST(CustomTrial, WithoutTheTrialProgramNothingIsClaimed) {
  const CoreConfig saved = coreConfig();
  CoreConfig config = saved;
  config.measureProgram = "off";
  setCoreConfig(config);
  const TrialOutcome t = trialCustomStep(
      *sharedContext(), ChainStep::customCode(CustomKernel::make("return pixel(0, 0);")), 8, 8);
  setCoreConfig(saved);
  EXPECT_EQ(t.verdict, TrialOutcome::Verdict::Unavailable);
  EXPECT_FALSE(t.passed());
}

}  // namespace
}  // namespace convolab::test
