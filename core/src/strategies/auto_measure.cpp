// SPDX-License-Identifier: MIT
// auto's measurement: see auto_measure.hpp.
#include "auto_measure.hpp"

#include <algorithm>
#include <cstdio>
#include <random>
#include <set>

#include "../strategy_support.hpp"
#include "auto_measure_process.hpp"
#include "convolab/config.hpp"
#include "convolab/error.hpp"
#include "convolab/image.hpp"
#include "convolab/log.hpp"
#include "convolab/percentile.hpp"
#include "convolab/progress.hpp"

namespace convolab::auto_detail {
namespace {
/// A candidate whose first timed run is under this is timed kFastKernelRuns times in every round.
constexpr double kFastKernelMs = 1.0;
constexpr int kFastKernelRuns = 5;
InjectedTimes& injectedTimes() {
  static InjectedTimes times;
  return times;
}
}  // namespace

void setInjectedTimesForTesting(InjectedTimes times) {
  injectedTimes() = std::move(times);
}

std::unique_ptr<Strategy> createCandidate(const std::vector<StrategyEntry>& candidates,
                                          std::string_view name) {
  for (const auto& e : candidates)
    if (e.name == name) return e.create();
  throw Error(ErrorKind::Usage, "auto: '" + std::string(name) + "' is not one of its candidates");
}

void prepareAndLaunchOnce(Strategy& s, Context& ctx, const FilterSet& filter, int width, int height) {
  s.prepare(ctx, filter, width, height);
  const size_t bytes = static_cast<size_t>(width) * static_cast<size_t>(height) * kBytesPerPixel;
  FrameBuffers frame{cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, bytes),
                     cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, bytes), width, height};
  cl::Event::waitForEvents({s.enqueue(ctx, frame, {}).back().event});
}

std::vector<Choice> measureCandidates(const std::vector<StrategyEntry>& entries, Context& ctx,
                                      const FilterSet& filter, int width, int height,
                                      Clock::time_point deadline, double* provisionalMs,
                                      const std::function<void()>& beforeCandidate) {
  auto waitBeforeCandidate = [&] {
    if (!beforeCandidate) return;
    const auto start = Clock::now();
    beforeCandidate();
    deadline += Clock::now() - start;
  };
  auto create = [&](std::string_view name) { return createCandidate(entries, name); };
  const size_t bytes = static_cast<size_t>(width) * static_cast<size_t>(height) * kBytesPerPixel;
  std::vector<unsigned char> pixels(bytes);
  std::mt19937 rng(1234);
  for (auto& p : pixels) p = static_cast<unsigned char>(rng());
  FrameBuffers frame{cl::Buffer(ctx.context(), CL_MEM_READ_ONLY, bytes),
                     cl::Buffer(ctx.context(), CL_MEM_WRITE_ONLY, bytes), width, height};
  ctx.queue().enqueueWriteBuffer(frame.input, CL_TRUE, 0, bytes, pixels.data());
  if (provisionalMs) *provisionalMs = -1;
  injectedMeasurementStall();  // a test's stand-in for a compile that holds the driver (no-op otherwise)

  // Median kernel time of `runs` frames after one warm-up (first launch, lazy allocations); nullopt when the
  // candidate cannot build or run here (then it is simply not a candidate), or time is up.
  auto time = [&](std::string_view name, const std::string& variant, int runs) -> std::optional<double> {
    throwIfCancelled();  // a newer request made this measurement pointless: stop between candidates
    waitBeforeCandidate();
    if (Clock::now() > deadline) return std::nullopt;
    if (const auto& injected = injectedTimes()) return injected(name, variant);
    try {
      auto s = create(name);
      s->setTuningVariant(variant);
      s->prepare(ctx, filter, width, height);
      std::vector<double> times;
      for (int i = 0; i <= runs; ++i) {
        auto events = s->enqueue(ctx, frame, {});
        cl::Event::waitForEvents({events.back().event});
        double ms = 0;
        for (const auto& e : events) ms += eventMs(e.event);
        if (i > 0) times.push_back(ms);
        // A kernel of microseconds (a GPU) is timed more than once even in the early rounds: one run is
        // noise-sized there, and costs nothing.
        if (i == 1 && runs < kFastKernelRuns && ms < kFastKernelMs) runs = kFastKernelRuns;
      }
      const double ms = median(times);
      if (coreConfig().autoVerbose) {
        char line[256];
        std::snprintf(line, sizeof line, "auto:   %s%s%s %.3f ms (%d runs)", std::string(name).c_str(),
                      variant.empty() ? "" : "/", variant.c_str(), ms, runs);
        logMessage(LogLevel::Debug, line);
      }
      return ms;
    } catch (const Error&) {
      return std::nullopt;
    } catch (const cl::Error&) {
      return std::nullopt;
    }
  };
  auto byTime = [](const Choice& a, const Choice& b) { return a.ms < b.ms; };

  std::vector<std::string> candidates;
  std::set<std::string> kernels;  // strategies running the same kernels are timed once
  for (const auto& entry : entries) {
    const auto s = entry.create();
    if (s->unsupportedReason(ctx, filter) || !kernels.insert(s->kernelIdentity(ctx, filter)).second) continue;
    candidates.emplace_back(entry.name);
  }
  std::stable_partition(candidates.begin(), candidates.end(),
                        [](const std::string& n) { return n == kProvisionalStrategy; });
  const int steps = static_cast<int>(candidates.size()) + 3;  // + the finalists' confirmation runs
  std::vector<Choice> round1;
  for (size_t i = 0; i < candidates.size(); ++i) {
    reportProgress("measuring strategies", static_cast<int>(i), steps);
    if (auto ms = time(candidates[i], "", 1)) {
      round1.push_back({candidates[i], "", *ms});
      if (provisionalMs && candidates[i] == kProvisionalStrategy) *provisionalMs = *ms;
    }
  }
  if (round1.empty()) return {};
  std::sort(round1.begin(), round1.end(), byTime);

  std::vector<Choice> round2;
  for (const Choice& c : round1) {
    if (c.ms > 2 * round1.front().ms || round2.size() >= 12) break;
    round2.push_back(c);
    const auto variants = create(c.strategy)->tuningVariants(ctx, filter);
    for (size_t v = 1; v < variants.size(); ++v)
      if (auto ms = time(c.strategy, variants[v], 1)) round2.push_back({c.strategy, variants[v], *ms});
  }
  std::sort(round2.begin(), round2.end(), byTime);

  // The finalists: the best variant of each of the three fastest strategies. Three variants of one strategy
  // (codegen has dozens) would otherwise crowd out a strategy whose one early run was unlucky (issue 35: auto
  // ran codegen at 22.1 us on the H100 while separable took 16.5 us in the same run).
  std::vector<Choice> best;
  for (const Choice& c : round2)
    if (best.size() < 3 &&
        std::none_of(best.begin(), best.end(), [&](const Choice& b) { return b.strategy == c.strategy; }))
      best.push_back(c);
  round2 = std::move(best);
  const int runs = coreConfig().autoRuns;
  std::vector<Choice> finalists;
  for (size_t i = 0; i < round2.size() && i < 3; ++i) {
    reportProgress("measuring strategies", steps - 3 + static_cast<int>(i), steps);
    const auto ms = time(round2[i].strategy, round2[i].variant, runs);
    // Past the deadline the round-2 time stands (one run): a result now beats a better one later.
    if (ms || Clock::now() > deadline)
      finalists.push_back({round2[i].strategy, round2[i].variant, ms.value_or(round2[i].ms)});
    if (ms && provisionalMs && round2[i].strategy == kProvisionalStrategy && round2[i].variant.empty())
      *provisionalMs = *ms;
  }
  reportProgress("measuring strategies", steps, steps);
  return finalists;
}

Choice fastest(const std::vector<Choice>& results) {
  return *std::min_element(results.begin(), results.end(),
                           [](const Choice& a, const Choice& b) { return a.ms < b.ms; });
}

}  // namespace convolab::auto_detail
