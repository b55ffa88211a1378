// SPDX-License-Identifier: MIT
// auto: measures every strategy (and launch-shape variant) that accepts this device and filter on the
// real frame size, then delegates to the fastest. Choices are cached per device + size + filter structure.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "../strategy_support.hpp"
#include "convolab/atomic_file.hpp"
#include "convolab/auto_choices.hpp"
#include "convolab/config.hpp"
#include "convolab/error.hpp"
#include "convolab/image.hpp"
#include "convolab/log.hpp"
#include "convolab/percentile.hpp"
#include "convolab/progress.hpp"

namespace convolab {
namespace {

using Choice = AutoChoice;

class AutoStrategy final : public Strategy {
 public:
  explicit AutoStrategy(std::vector<StrategyEntry> candidates) : m_candidates(std::move(candidates)) {}

  std::string name() const override { return std::string(kAutoStrategy); }

  StrategyId activeId() const override {
    if (!m_inner) return StrategyId(name());
    return StrategyId(m_choice.strategy, m_choice.variant, true);
  }

  std::optional<std::string> unsupportedReason(const Context&, const FilterSet&) const override {
    return std::nullopt;  // at worst it picks naive, which runs everywhere
  }

  void prepare(Context& ctx, const FilterSet& filter, int width, int height) override {
    const std::string key = autoChoiceKey(ctx, filter, width, height);
    if (m_inner && key == m_key) {
      m_inner->prepare(ctx, filter, width, height);  // same structure: only coefficients changed
      return;
    }
    if (auto cached = AutoChoiceCache::instance().find(ctx.programCache(), key)) {
      // The file may be stale, hand-edited or damaged: a choice is only trusted when the strategy
      // itself offers that variant here, and only kept when it prepares. Otherwise measure again.
      if (auto reason = invalidAutoChoiceReason(ctx, filter, *cached, m_candidates)) {
        logMessage(LogLevel::Debug, "auto: ignoring the cached choice for " + key + ": " + *reason);
        AutoChoiceCache::instance().forget(key);
      } else if (activate(ctx, filter, width, height, *cached)) {
        m_key = key;
        return;
      }
    }
    const Choice best = measure(ctx, filter, width, height);
    if (coreConfig().autoVerbose) {
      char line[256];
      std::snprintf(line, sizeof line, "auto: %dx%d -> %s%s%s (%.3f ms)", width, height,
                    best.strategy.c_str(), best.variant.empty() ? "" : "/", best.variant.c_str(), best.ms);
      logMessage(LogLevel::Debug, line);
    }
    if (!activate(ctx, filter, width, height, best))
      throw Error(ErrorKind::Device,
                  "auto: the measured winner '" + best.strategy + "' failed to prepare again");
    AutoChoiceCache::instance().store(ctx.programCache(), key, best);
    m_key = key;
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    return m_inner->enqueue(ctx, frame, waitFor);
  }

  /// Measures in three rounds so slow candidates cost one run each: (1) every accepting strategy once,
  /// default variant; (2) every tuning variant of the strategies within 2x of the best, once; (3) the
  /// best few (strategy, variant) pairs `CONVOLAB_AUTO_RUNS` times (default 5), median. Returns round 3.
  std::vector<Choice> measureAll(Context& ctx, const FilterSet& filter, int width, int height) const {
    const size_t bytes = static_cast<size_t>(width) * static_cast<size_t>(height) * kBytesPerPixel;
    std::vector<unsigned char> pixels(bytes);
    std::mt19937 rng(1234);
    for (auto& p : pixels) p = static_cast<unsigned char>(rng());
    FrameBuffers frame{cl::Buffer(ctx.context(), CL_MEM_READ_ONLY, bytes),
                       cl::Buffer(ctx.context(), CL_MEM_WRITE_ONLY, bytes), width, height};
    ctx.queue().enqueueWriteBuffer(frame.input, CL_TRUE, 0, bytes, pixels.data());

    // Median kernel time of `runs` frames after one warm-up (first launch, lazy allocations); nullopt when
    // the candidate cannot build or run here (then it is simply not a candidate).
    auto time = [&](std::string_view name, const std::string& variant, int runs) -> std::optional<double> {
      throwIfCancelled();  // a newer request made this measurement pointless: stop between candidates
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

    std::vector<Choice> round1;
    std::set<std::string> kernels;  // strategies running the same kernels are timed once
    std::vector<std::string> candidates;
    for (const auto& entry : m_candidates) {
      const auto s = entry.create();
      if (s->unsupportedReason(ctx, filter) || !kernels.insert(s->kernelIdentity(ctx, filter)).second)
        continue;
      candidates.emplace_back(entry.name);
    }
    const int steps = static_cast<int>(candidates.size()) + 3;  // + the finalists' confirmation runs
    for (size_t i = 0; i < candidates.size(); ++i) {
      reportProgress("measuring strategies", static_cast<int>(i), steps);
      if (auto ms = time(candidates[i], "", 1)) round1.push_back({candidates[i], "", *ms});
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

    const int runs = coreConfig().autoRuns;
    std::vector<Choice> finalists;
    for (size_t i = 0; i < round2.size() && i < 3; ++i) {
      reportProgress("measuring strategies", steps - 3 + static_cast<int>(i), steps);
      if (auto ms = time(round2[i].strategy, round2[i].variant, runs))
        finalists.push_back({round2[i].strategy, round2[i].variant, *ms});
    }
    reportProgress("measuring strategies", steps, steps);
    return finalists;
  }

 private:
  /// The candidate called `name`; Error(Usage) when there is none.
  std::unique_ptr<Strategy> create(std::string_view name) const {
    for (const auto& e : m_candidates)
      if (e.name == name) return e.create();
    throw Error(ErrorKind::Usage, "auto: '" + std::string(name) + "' is not one of its candidates");
  }

  Choice measure(Context& ctx, const FilterSet& filter, int width, int height) const {
    auto results = measureAll(ctx, filter, width, height);
    if (results.empty()) return {"naive", "", 0};
    return *std::min_element(results.begin(), results.end(),
                             [](const Choice& a, const Choice& b) { return a.ms < b.ms; });
  }

  bool activate(Context& ctx, const FilterSet& filter, int width, int height, const Choice& choice) {
    try {
      auto s = create(choice.strategy);
      if (s->unsupportedReason(ctx, filter)) return false;
      s->setTuningVariant(choice.variant);
      s->prepare(ctx, filter, width, height);
      m_inner = std::move(s);
      m_choice = choice;
      return true;
    } catch (const Error&) {
      return false;
    } catch (const cl::Error&) {
      return false;
    }
  }

  std::vector<StrategyEntry> m_candidates;  ///< what it measures (injected: the registry's other rows)
  std::unique_ptr<Strategy> m_inner;
  Choice m_choice;
  std::string m_key;
};

}  // namespace

std::unique_ptr<Strategy> makeAutoStrategy(std::vector<StrategyEntry> candidates) {
  return std::make_unique<AutoStrategy>(std::move(candidates));
}

}  // namespace convolab
