// SPDX-License-Identifier: MIT
// auto's measurement cannot stall the live frames (issue 35): it runs in a child process. A measurement is
// made to take 10 s holding its process's stand-in for the driver lock (CONVOLAB_INJECT_FAULT=
// measure:hold-driver: a PoCL compile holds the driver's lock that every launch of its process waits for),
// and the live loop, which takes that lock for each frame as a launch would, must never wait for it.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <mutex>

#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/fault_injection.hpp"
#include "convolab/registry.hpp"
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

}  // namespace
}  // namespace convolab::test
