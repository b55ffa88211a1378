// SPDX-License-Identifier: MIT
// auto keeps the fastest of several candidates. The candidates are fakes whose one launch spins on the device
// for a set time (40, 78 and 70 ms): all three are within 2x of each other, so all reach the final round, and
// only picking the minimum gives the 40 ms one (a test with one candidate cannot tell min from max).
#include <gtest/gtest.h>

#include <cmath>

#include "convolab/auto_choices.hpp"
#include "convolab/config.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab::test::auto_fastest {
namespace {

const char* const kSpinSource = R"CL(
__kernel void spin(__global uchar* out, int iterations) {
  float a = 1.0f;
  for (int i = 0; i < iterations; ++i) a = a * 0.9999f + 0.5f;  // a dependent chain: no shortcut
  out[0] = (uchar)a;
}
)CL";

/// Device iterations of the spin loop per millisecond, measured once.
double g_iterationsPerMs = 0;

cl::Kernel spinKernel(Context& ctx) {
  cl::Program program(ctx.context(), kSpinSource);
  program.build({ctx.clDevice()});
  return cl::Kernel(program, "spin");
}

/// Milliseconds one launch of `iterations` takes (profiling events, as auto measures).
double spinMs(Context& ctx, cl::Kernel& kernel, const cl::Buffer& out, int iterations) {
  kernel.setArg(0, out);
  kernel.setArg(1, iterations);
  cl::Event e;
  ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr, &e);
  e.wait();
  return static_cast<double>(e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                             e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
         1e-6;
}

/// A candidate whose every frame is one spin of kMs milliseconds; it writes no pixels (auto only times it).
template <int kMs>
class SpinStrategy : public Strategy {
 public:
  std::string name() const override { return "spin" + std::to_string(kMs); }
  std::optional<std::string> unsupportedReason(const Context&, const FilterSet&) const override {
    return std::nullopt;
  }
  void prepare(Context& ctx, const FilterSet&, int, int) override { m_kernel = spinKernel(ctx); }
  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    m_kernel.setArg(0, frame.output);
    m_kernel.setArg(1, static_cast<int>(std::lround(g_iterationsPerMs * kMs)));
    cl::Event e;
    ctx.queue().enqueueNDRangeKernel(m_kernel, cl::NullRange, cl::NDRange(1), cl::NullRange,
                                     waitFor.empty() ? nullptr : &waitFor, &e);
    return {{"spin", e}};
  }

 private:
  cl::Kernel m_kernel;
};

template <int kMs>
std::unique_ptr<Strategy> makeSpin() {
  return std::make_unique<SpinStrategy<kMs>>();
}

TEST(AutoFastest, KeepsTheFastestOfSeveralFinalists) {
  const CoreConfig saved = coreConfig();
  CoreConfig config = saved;
  config.noProgramCache = true;  // the choice it stores stays in memory
  config.autoRuns = 5;           // the median of five: a preempted run on a busy machine does not decide
  setCoreConfig(config);
  auto ctx = std::make_shared<Context>(sharedContext()->device());
  {
    cl::Kernel kernel = spinKernel(*ctx);
    const cl::Buffer out(ctx->context(), CL_MEM_WRITE_ONLY, 16);
    spinMs(*ctx, kernel, out, 1000);  // first launch: lazy compilation
    const int probe = 2000000;
    g_iterationsPerMs = probe / std::max(spinMs(*ctx, kernel, out, probe), 1e-3);
  }
  // The fastest neither first nor last, so neither "first" nor "last" passes for "fastest".
  const std::vector<StrategyEntry> candidates{{"spin70", "spins 70 ms", &makeSpin<70>},
                                              {"spin40", "spins 40 ms", &makeSpin<40>},
                                              {"spin78", "spins 78 ms", &makeSpin<78>}};
  const AutoChoice chosen =
      measureAutoChoice(*ctx, randomFilter(3, BorderMode::Reflect101, 5), 64, 48, candidates);
  setCoreConfig(saved);
  EXPECT_EQ(chosen.strategy, "spin40") << "measured " << chosen.ms << " ms";
}

}  // namespace
}  // namespace convolab::test::auto_fastest
