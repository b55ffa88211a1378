// SPDX-License-Identifier: MIT
// auto's measurement cannot stall the live frames (issue 35): it runs in a child process. A measurement is
// made to take 10 s holding its process's stand-in for the driver lock (CONVOLAB_INJECT_FAULT=
// measure:hold-driver: a PoCL compile holds the driver's lock that every launch of its process waits for),
// and the live loop, which takes that lock for each frame as a launch would, must never wait for it.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/fault_injection.hpp"
#include "convolab/registry.hpp"
#include "strategies/auto_measure_process.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

using MeasureClock = std::chrono::steady_clock;

/// Sets an environment variable for the scope (the child process inherits it).
class EnvScope {
 public:
  EnvScope(const char* name, const char* value) : m_name(name) { ::setenv(name, value, 1); }
  ~EnvScope() { ::unsetenv(m_name); }

 private:
  const char* m_name;
};

TEST(AutoMeasureProcess, ATenSecondMeasurementStallsNoLiveFrame) {
  const EnvScope fault("CONVOLAB_INJECT_FAULT", "measure:hold-driver");
  const CoreConfig saved = coreConfig();
  CoreConfig config = saved;
  config.noProgramCache = true;  // no stored choice: auto measures
  config.autoMeasure = CoreConfig::AutoMeasure::Background;
  config.autoQuietMs = 0;  // measure at once
  config.measureProgram = CONVOLAB_MEASURE_PROGRAM_PATH;
  setCoreConfig(config);
  {
    auto ctx = std::make_shared<Context>(sharedContext()->device());
    Engine engine(ctx);
    engine.setFilter(randomFilter(5, BorderMode::Reflect101, 35));
    const Image in = randomImage(64, 48, 1);
    Image out(64, 48);
    auto frame = [&] {
      std::lock_guard launch(injectedDriverLock());  // what a launch waits for on PoCL
      engine.process(in.view(), out.mutableView());
    };
    frame();
    // Frames until the measurement holds the lock (it says so: "measuring 0/1"), then one more second.
    const auto start = MeasureClock::now();
    auto last = start;
    double maxGapMs = 0;
    MeasureClock::time_point stallBegan{};
    while (stallBegan == MeasureClock::time_point{} ||
           MeasureClock::now() - stallBegan < std::chrono::seconds(1)) {
      frame();
      const auto now = MeasureClock::now();
      maxGapMs = std::max(maxGapMs, std::chrono::duration<double, std::milli>(now - last).count());
      last = now;
      if (stallBegan == MeasureClock::time_point{} &&
          engine.activeStrategyId().note.find("measuring 0/1") != std::string::npos)
        stallBegan = now;
      ASSERT_LT(now - start, std::chrono::seconds(10)) << "the measurement never began";
    }
    EXPECT_LT(maxGapMs, 200.0) << "a live frame waited for the measurement";
    stopAutoMeasurements();  // kills the child
  }
  setCoreConfig(saved);
}

// The child's early reports ("better S V MS", as measureCandidates finds a candidate clearly faster than the
// provisional one) reach the caller while the child goes on, and are not taken for its final results. A
// stand-in child (a script) prints a fixed report, so the protocol is tested without timing anything.
TEST(AutoMeasureProcess, EarlyReportsReachTheCallerBeforeTheResults) {
  const std::string script = testing::TempDir() + "fake-convolab-measure.sh";
  {
    std::FILE* f = std::fopen(script.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(
        "#!/bin/sh\necho progress 1 4\necho better tiled - 20.5\necho better codegen b8x4 9.25\n"
        "echo progress 4 4\necho provisional 30\necho result codegen b8x4 9.5\necho result tiled - 21\n",
        f);
    std::fclose(f);
    ASSERT_EQ(::chmod(script.c_str(), 0755), 0);
  }
  const CoreConfig saved = coreConfig();
  CoreConfig config = saved;
  config.measureProgram = script;
  setCoreConfig(config);
  std::vector<std::string> early;
  const auto outcome = auto_detail::measureInChildProcess(
      strategyCandidates(), *sharedContext(), randomFilter(3, BorderMode::Reflect101, 36), 64, 48, 1000,
      [&early](const auto_detail::Choice& c) {
        early.push_back(c.strategy + "/" + c.variant + " " + std::to_string(c.ms));
      });
  setCoreConfig(saved);
  std::remove(script.c_str());
  EXPECT_EQ(early, (std::vector<std::string>{"tiled/ 20.500000", "codegen/b8x4 9.250000"}));
  ASSERT_TRUE(outcome);
  EXPECT_EQ(outcome->provisionalMs, 30);
  ASSERT_EQ(outcome->results.size(), 2u) << "the early reports are not results";
  EXPECT_EQ(outcome->results[0].strategy, "codegen");
  EXPECT_EQ(outcome->results[0].ms, 9.5);
}

// A swap to a measured winner prepares and launches it in the child first (on PoCL the first launch in this
// process would stall the live frames for about a second): the child builds and launches a registry
// strategy and says so by its exit; a strategy it does not know, or a child that fails, is a false.
TEST(AutoMeasureProcess, APreparationInAChildBuildsTheStrategyThere) {
  const CoreConfig saved = coreConfig();
  CoreConfig config = saved;
  config.measureProgram = CONVOLAB_MEASURE_PROGRAM_PATH;
  setCoreConfig(config);
  const FilterSet filter = randomFilter(3, BorderMode::Reflect101, 37);
  EXPECT_TRUE(auto_detail::prepareInChildProcess(*sharedContext(), filter, {"naive", "", 0}, 32, 24));
  EXPECT_FALSE(auto_detail::prepareInChildProcess(*sharedContext(), filter, {"no-such", "", 0}, 32, 24));
  const std::string failing = testing::TempDir() + "failing-convolab-measure.sh";
  {
    std::FILE* f = std::fopen(failing.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("#!/bin/sh\nexit 4\n", f);
    std::fclose(f);
    ASSERT_EQ(::chmod(failing.c_str(), 0755), 0);
  }
  config.measureProgram = failing;
  setCoreConfig(config);
  EXPECT_FALSE(auto_detail::prepareInChildProcess(*sharedContext(), filter, {"naive", "", 0}, 32, 24));
  setCoreConfig(saved);
  std::remove(failing.c_str());
}

}  // namespace
}  // namespace convolab::test
