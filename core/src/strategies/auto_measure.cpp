// SPDX-License-Identifier: MIT
// auto's measurement: see auto_measure.hpp.
#include "auto_measure.hpp"

#include <algorithm>
#include <cstdio>
#include <random>
#include <set>

#include "../strategy_support.hpp"
#include "auto_candidates.hpp"
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

namespace {

/// Times candidates on scratch frames of one size: each timing is the median kernel time of `runs` frames
/// after one warm-up (first launch, lazy allocations); nullopt when the candidate cannot build or run here
/// (then it is simply not a candidate), or time is up.
class CandidateTimer {
 public:
  CandidateTimer(const std::vector<StrategyEntry>& entries, Context& ctx, const FilterSet& filter, int width,
                 int height, Clock::time_point deadline, const std::function<void()>& beforeCandidate)
      : m_entries(entries), m_ctx(ctx), m_filter(filter), m_deadline(deadline), m_before(beforeCandidate) {
    const size_t bytes = static_cast<size_t>(width) * static_cast<size_t>(height) * kBytesPerPixel;
    std::vector<unsigned char> pixels(bytes);
    std::mt19937 rng(1234);
    for (auto& p : pixels) p = static_cast<unsigned char>(rng());
    m_frame = FrameBuffers{cl::Buffer(ctx.context(), CL_MEM_READ_ONLY, bytes),
                           cl::Buffer(ctx.context(), CL_MEM_WRITE_ONLY, bytes), width, height};
    ctx.queue().enqueueWriteBuffer(m_frame.input, CL_TRUE, 0, bytes, pixels.data());
  }

  std::unique_ptr<Strategy> create(std::string_view name) const { return createCandidate(m_entries, name); }
  bool pastDeadline() const { return Clock::now() > m_deadline; }

  std::optional<double> operator()(std::string_view name, const std::string& variant, int runs) {
    throwIfCancelled();  // a newer request made this measurement pointless: stop between candidates
    if (m_before) {      // may wait (for edits to pause): that time is not the measurement's
      const auto start = Clock::now();
      m_before();
      m_deadline += Clock::now() - start;
    }
    if (pastDeadline()) return std::nullopt;
    if (const auto& injected = injectedTimes()) return injected(name, variant);
    try {
      return run(name, variant, runs);
    } catch (const Error&) {
      return std::nullopt;
    } catch (const cl::Error&) {
      return std::nullopt;
    }
  }

 private:
  double run(std::string_view name, const std::string& variant, int runs) {
    auto s = create(name);
    s->setTuningVariant(variant);
    s->prepare(m_ctx, m_filter, m_frame.width, m_frame.height);
    std::vector<double> times;
    for (int i = 0; i <= runs; ++i) {
      auto events = s->enqueue(m_ctx, m_frame, {});
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
  }

  const std::vector<StrategyEntry>& m_entries;
  Context& m_ctx;
  const FilterSet& m_filter;
  Clock::time_point m_deadline;
  const std::function<void()>& m_before;
  FrameBuffers m_frame;
};

bool byTime(const Choice& a, const Choice& b) {
  return a.ms < b.ms;
}

/// Notes a candidate left out (auto's verbose log, and `out` when given).
void exclude(std::vector<Exclusion>* out, const std::string& name, const std::string& reason) {
  if (coreConfig().autoVerbose) logMessage(LogLevel::Debug, "auto:   " + name + " not measured: " + reason);
  if (out) out->push_back({name, reason});
}

/// The candidates that accept `filter`, one per distinct kernel, in measuring order, less the prior
/// exclusions; `largeK`: a Transform candidate accepts the filter.
std::vector<std::string> acceptingCandidates(const std::vector<StrategyEntry>& entries, Context& ctx,
                                             const FilterSet& filter, bool& largeK,
                                             std::vector<Exclusion>* excluded) {
  std::vector<std::string> accepting;
  std::set<std::string> kernels;  // strategies running the same kernels are timed once
  CandidateContext where;
  where.cpuDevice = !ctx.device().isGpu;
  for (const auto& entry : entries) {
    const auto s = entry.create();
    if (s->unsupportedReason(ctx, filter) || !kernels.insert(s->kernelIdentity(ctx, filter)).second) continue;
    accepting.emplace_back(entry.name);
    const CostClass c = costClassOf(entry.name);
    where.largeK = where.largeK || c == CostClass::Transform;
    where.cheaperPath = where.cheaperPath || c == CostClass::Transform || c == CostClass::Factored;
  }
  largeK = where.largeK;
  std::vector<std::string> out;
  for (const auto& name : measuringOrder(std::move(accepting), kProvisionalStrategy)) {
    if (auto reason = priorExclusion(name, filter, where))
      exclude(excluded, name, *reason);
    else
      out.push_back(name);
  }
  return out;
}

/// Round 1: every candidate once, default variant; in the large-K regime a generic one after the provisional
/// one only while it could still win (hopelessExclusion).
std::vector<Choice> firstRound(CandidateTimer& time, const std::vector<std::string>& candidates, bool largeK,
                               int steps, double* provisionalMs, std::vector<Exclusion>* excluded,
                               const std::function<void(const Choice&)>& onBetter) {
  std::vector<Choice> round1;
  double generic = -1, reported = -1;
  // The best other candidate so far, when it beats the provisional one by the margin and the last one
  // reported: onBetter's (a live swap long before the last round).
  auto reportBetter = [&] {
    if (!onBetter || generic < 0) return;
    const Choice* best = nullptr;
    for (const Choice& c : round1)
      if (c.strategy != kProvisionalStrategy && (!best || c.ms < best->ms)) best = &c;
    if (best && best->ms < generic * (1 - kSwitchMargin) && (reported < 0 || best->ms < reported)) {
      reported = best->ms;
      onBetter(*best);
    }
  };
  for (size_t i = 0; i < candidates.size(); ++i) {
    reportProgress("measuring strategies", static_cast<int>(i), steps);
    if (!round1.empty() && candidates[i] != kProvisionalStrategy) {
      const Choice& best = *std::min_element(round1.begin(), round1.end(), byTime);
      if (auto reason = hopelessExclusion(candidates[i], largeK, generic, best.strategy, best.ms)) {
        exclude(excluded, candidates[i], *reason);
        continue;
      }
    }
    if (auto ms = time(candidates[i], "", 1)) {
      round1.push_back({candidates[i], "", *ms});
      if (candidates[i] == kProvisionalStrategy) {
        generic = *ms;
        if (provisionalMs) *provisionalMs = *ms;
      }
      reportBetter();
    }
  }
  std::sort(round1.begin(), round1.end(), byTime);
  return round1;
}

/// Round 2: every tuning variant of the strategies within 2x of the best, once (at large K not those of the
/// strategies whose build grows with K: their default only); then the best variant of each
/// of the three fastest strategies. Three variants of one strategy (codegen has dozens) would otherwise crowd
/// out a strategy whose one early run was unlucky (issue 35: auto ran codegen at 22.1 us on the H100 while
/// separable took 16.5 us in the same run).
std::vector<Choice> variantRound(CandidateTimer& time, Context& ctx, const FilterSet& filter,
                                 const std::vector<Choice>& round1, bool largeK) {
  std::vector<Choice> round2;
  for (const Choice& c : round1) {
    if (c.ms > 2 * round1.front().ms || round2.size() >= 12) break;
    round2.push_back(c);
    if (largeK && buildGrowsWithK(c.strategy)) continue;  // each variant would be another K²-unrolled build
    const auto variants = time.create(c.strategy)->tuningVariants(ctx, filter);
    for (size_t v = 1; v < variants.size(); ++v)
      if (auto ms = time(c.strategy, variants[v], 1)) round2.push_back({c.strategy, variants[v], *ms});
  }
  std::sort(round2.begin(), round2.end(), byTime);
  std::vector<Choice> best;
  for (const Choice& c : round2)
    if (best.size() < 3 &&
        std::none_of(best.begin(), best.end(), [&](const Choice& b) { return b.strategy == c.strategy; }))
      best.push_back(c);
  return best;
}

/// Round 3: the finalists `CONVOLAB_AUTO_RUNS` times each, median.
std::vector<Choice> finalRound(CandidateTimer& time, const std::vector<Choice>& round2, int steps,
                               double* provisionalMs) {
  const int runs = coreConfig().autoRuns;
  std::vector<Choice> finalists;
  for (size_t i = 0; i < round2.size() && i < 3; ++i) {
    reportProgress("measuring strategies", steps - 3 + static_cast<int>(i), steps);
    const auto ms = time(round2[i].strategy, round2[i].variant, runs);
    // Past the deadline the round-2 time stands (one run): a result now beats a better one later.
    if (ms || time.pastDeadline())
      finalists.push_back({round2[i].strategy, round2[i].variant, ms.value_or(round2[i].ms)});
    if (ms && provisionalMs && round2[i].strategy == kProvisionalStrategy && round2[i].variant.empty())
      *provisionalMs = *ms;
  }
  reportProgress("measuring strategies", steps, steps);
  return finalists;
}

}  // namespace

std::vector<Choice> measureCandidates(const std::vector<StrategyEntry>& entries, Context& ctx,
                                      const FilterSet& filter, int width, int height,
                                      Clock::time_point deadline, double* provisionalMs,
                                      const std::function<void()>& beforeCandidate,
                                      std::vector<Exclusion>* excluded,
                                      const std::function<void(const Choice&)>& onBetter) {
  CandidateTimer time(entries, ctx, filter, width, height, deadline, beforeCandidate);
  if (provisionalMs) *provisionalMs = -1;
  injectedMeasurementStall();  // a test's stand-in for a compile that holds the driver (no-op otherwise)
  bool largeK = false;
  const std::vector<std::string> candidates = acceptingCandidates(entries, ctx, filter, largeK, excluded);
  const int steps = static_cast<int>(candidates.size()) + 3;  // + the finalists' confirmation runs
  const std::vector<Choice> round1 =
      firstRound(time, candidates, largeK, steps, provisionalMs, excluded, onBetter);
  if (round1.empty()) return {};
  return finalRound(time, variantRound(time, ctx, filter, round1, largeK), steps, provisionalMs);
}

Choice fastest(const std::vector<Choice>& results) {
  return *std::min_element(results.begin(), results.end(),
                           [](const Choice& a, const Choice& b) { return a.ms < b.ms; });
}

}  // namespace convolab::auto_detail
