// SPDX-License-Identifier: MIT
// compareChainStrategies: one Engine per row (a strategy step by step, or fused), timed from the stages of
// its FrameTimings, checked against referenceChain; the ★ rule and the verdict.
#include "compare_chain.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "convolab/engine.hpp"
#include "convolab/error.hpp"
#include "convolab/percentile.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"

namespace convolab::lab {
namespace {

std::string ms(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f ms" : v >= 1 ? "%.2f ms" : "%.3f ms", v);
  return buf;
}

std::string times(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f×", ratio);
  return buf;
}

std::string squareK(int k) {
  return std::to_string(k) + "x" + std::to_string(k);
}

/// The chain as every row runs it: each filter step trimmed to its support (the same output from fewer taps,
/// as auto runs a filter; issue 35's like with like).
FilterChain effectiveChain(const FilterChain& chain) {
  std::vector<ChainStep> steps = chain.steps();
  for (ChainStep& s : steps)
    if (!s.isMagnitude() && !s.isCustom()) s.filter = s.filter.trimmedToSupport();
  return FilterChain::make(std::move(steps), chain.name());
}

/// "1 Gaussian 5x5", "2 magnitude (Sobel X, Sobel Y) 3x3", "3 Box 3x3 (declared 7x7)", "4 custom OpenCL".
std::string stepLabel(int number, const ChainStep& declared, const ChainStep& ran) {
  std::string label = std::to_string(number) + " ";
  if (ran.isCustom()) return label + "custom OpenCL";
  if (ran.isMagnitude())
    return label + "magnitude (" + ran.filter.name() + ", " + ran.other->name() + ") " +
           squareK(2 * ran.radius() + 1);
  label += (ran.filter.name().empty() ? std::string("filter") : ran.filter.name()) + " " +
           squareK(ran.filter.size());
  if (declared.filter.size() != ran.filter.size())
    label += " (declared " + squareK(declared.filter.size()) + ")";
  return label;
}

/// Nominal flops of one output pixel of the step: 2·K²·3 a filter, both filters of a magnitude, 0 custom
/// code.
double stepFlops(const ChainStep& s) {
  if (s.isCustom()) return 0;
  const auto direct = [](const FilterSet& f) { return 2.0 * f.size() * f.size() * kChannels; };
  return direct(s.filter) + (s.other ? direct(*s.other) : 0);
}

/// The step of a stage name "step 2: convolve_tiled" (1-based), or 0.
int stepOf(const std::string& stage) {
  if (stage.rfind("step ", 0) != 0) return 0;
  return std::atoi(stage.c_str() + 5);
}

/// Why `strategy` cannot run a filter step of `steps` ("step 2: filter is not separable …"), or nullopt.
std::optional<std::string> declinedStep(const Context& ctx, const std::vector<ChainStep>& steps,
                                        const std::string& strategy) {
  const std::unique_ptr<Strategy> s = createStrategy(strategy);
  for (size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].isMagnitude() || steps[i].isCustom()) continue;
    if (auto reason = s->unsupportedReason(ctx, steps[i].filter))
      return "step " + std::to_string(i + 1) + ": " + *reason;
  }
  return std::nullopt;
}

/// What the row's first frame ran when it is not what the row asked for: a step fell back to another
/// strategy, or the chain did not fuse (the engine's notice says why). {status, reason}, or nullopt.
std::optional<std::pair<std::string, std::string>> ranOtherwise(const std::vector<std::string>& ran,
                                                                const std::vector<ChainStep>& steps,
                                                                const std::string& strategy, bool fused,
                                                                const std::vector<std::string>& notices) {
  std::string said;
  for (const std::string& n : notices) said += (said.empty() ? "" : "; ") + n;
  if (fused) {
    if (ran.size() == 1 && ran.front() == kFusedRow) return std::nullopt;
    const std::string prefix = "the chain runs step by step: fused ";
    for (const std::string& n : notices)
      if (n.rfind(prefix, 0) == 0) {
        const std::string why = n.substr(prefix.size());
        return std::pair{std::string(why.rfind("failed", 0) == 0 ? "failed" : "declined"), why};
      }
    return std::pair{std::string("declined"),
                     "the chain ran step by step" + (said.empty() ? "" : ": " + said)};
  }
  for (size_t i = 0; i < ran.size() && i < steps.size(); ++i) {
    if (steps[i].isMagnitude() || steps[i].isCustom()) continue;
    const StrategyId id = StrategyId::parse(ran[i]);
    if (id.name == strategy || (strategy == kAutoStrategy && id.isAuto())) continue;
    return std::pair{std::string("failed"),
                     "step " + std::to_string(i + 1) + " ran " + ran[i] + (said.empty() ? "" : ": " + said)};
  }
  return std::nullopt;
}

/// Runs the rows on one frame: each row an Engine of its own on the caller's context.
class ChainRows {
 public:
  ChainRows(Context& ctx, const FilterChain& chain, const ImageView& frame, const ComparisonOptions& options,
            const ComparisonProgress& progress, int totalUnits)
      // The caller's context, not owned: every engine made here ends before compareChainStrategies returns.
      : m_ctx(&ctx, [](Context*) {}),
        m_chain(chain),
        m_steps(chain.enabledSteps()),
        m_options(options),
        m_progress(progress),
        m_total(totalUnits),
        m_input(frame.width, frame.height),
        m_output(frame.width, frame.height) {
    for (int y = 0; y < frame.height; ++y)
      std::copy_n(frame.row(y), static_cast<size_t>(frame.width) * kBytesPerPixel,
                  m_input.pixels.data() + static_cast<size_t>(y) * m_input.stride);
  }

  bool cancelled() const { return m_cancelled; }

  ComparisonRow run(const std::string& strategy, bool fused) {
    ComparisonRow row;
    row.strategy = fused ? std::string(kFusedRow) : strategy;
    row.chainMode = fused ? "fused" : "steps";
    row.active = StrategyId{row.strategy};
    const std::string label = fused ? "fused (one launch)" : strategy + " (step by step)";
    const int units = m_options.warmup + m_options.iterations;
    try {
      if (auto reason = fused ? std::nullopt : declinedStep(*m_ctx, m_steps, strategy)) {
        row.status = "declined";
        row.reason = *reason;
        m_done += units;
        return row;
      }
      if (!tick(label + ": preparing")) return row;
      // The fused row runs no step on its own; its engine prepares the steps with dynamic (one program for
      // every K), which would run them only where the chain does not fuse (then the row is declined).
      Engine engine(m_ctx, fused ? "dynamic" : strategy);
      engine.setChainFusion(fused ? ChainFusion::Fused : ChainFusion::StepByStep);
      engine.setChain(m_chain);
      engine.prepare(m_input.width, m_input.height);
      if (!measure(engine, row, fused, label, units)) return row;
      row.maxDiff = maxDiffToReference();
      row.status = "ok";
    } catch (const std::exception& e) {
      markFailed(row, e);
    }
    return row;
  }

 private:
  bool tick(const std::string& label) {
    if (m_cancelled) return false;
    if (m_progress && !m_progress(m_done, m_total, label)) m_cancelled = true;
    return !m_cancelled;
  }

  /// The row's runs: its kernel, upload, download and per-step medians. False when cancelled or when the
  /// first frame ran something else than the row asks for (the row then says so).
  bool measure(Engine& engine, ComparisonRow& row, bool fused, const std::string& label, int units) {
    std::vector<double> kernel, upload, download;
    std::vector<std::vector<double>> steps(m_steps.size());
    for (int i = 0; i < units; ++i) {
      if (!tick(label)) return false;
      const FrameTimings t = engine.process(m_input.view(), m_output.mutableView());
      ++m_done;
      if (i == 0) {
        row.stepActive = engine.chainStepStrategies();
        if (auto why = ranOtherwise(row.stepActive, m_steps, row.strategy, fused, engine.takeNotices())) {
          std::tie(row.status, row.reason) = *why;
          m_done += units - 1;
          return false;
        }
      }
      if (i < m_options.warmup) continue;
      kernel.push_back(t.kernelMs);
      upload.push_back(t.uploadMs);
      download.push_back(t.downloadMs);
      std::vector<double> perStep(m_steps.size(), 0.0);  // a step may launch several kernels (separable)
      for (const StageTiming& stage : t.stages)
        if (const int n = stepOf(stage.name); n >= 1 && n <= static_cast<int>(perStep.size()))
          perStep[static_cast<size_t>(n - 1)] += stage.ms;
      if (!fused)
        for (size_t s = 0; s < steps.size(); ++s) steps[s].push_back(perStep[s]);
    }
    const SampleStats stats = SampleStats::of(kernel);
    row.kernelMedianMs = stats.median;
    row.kernelP95Ms = stats.p95;
    row.kernelMinMs = stats.min;
    row.uploadMs = median(upload);
    row.downloadMs = median(download);
    if (!fused)
      for (const auto& s : steps) row.stepMedianMs.push_back(median(s));
    return true;
  }

  int maxDiffToReference() {
    if (m_chain.hasCustomStep()) return -1;  // the user's code has no CPU reference
    if (m_reference.pixels.empty()) {
      m_reference = Image(m_input.width, m_input.height);
      referenceChain(m_input.view(), m_reference.mutableView(), m_chain);
    }
    return maxByteDiff(m_output, m_reference);
  }

  std::shared_ptr<Context> m_ctx;
  const FilterChain& m_chain;
  const std::vector<ChainStep> m_steps;  // the switched-on steps
  const ComparisonOptions& m_options;
  const ComparisonProgress& m_progress;
  int m_total = 0, m_done = 0;
  bool m_cancelled = false;
  Image m_input, m_output, m_reference;
};

std::string rowName(const ComparisonRow& r) {
  return r.chainMode == "fused" ? std::string("fused") : r.strategy + " step by step";
}

}  // namespace

bool comparesAsChain(const FilterChain& chain) {
  return chain.enabledSteps().size() >= 2;
}

ComparisonReport compareChainStrategies(Context& ctx, const FilterChain& declared, const ImageView& frame,
                                        const ComparisonOptions& options,
                                        const ComparisonProgress& progress) {
  if (frame.width < 1 || frame.height < 1 || !frame.data)
    throw Error(ErrorKind::BadInput, "compare strategies: there is no frame to run on");
  const FilterChain chain = effectiveChain(declared);
  const std::vector<ChainStep> on = chain.enabledSteps(), given = declared.enabledSteps();
  ComparisonReport report;
  report.device = ctx.device().name;
  report.deviceSpec = ctx.device().spec();
  report.width = frame.width;
  report.height = frame.height;
  report.filterName = declared.name();
  report.iterations = options.iterations;
  std::tie(report.peakGflops, report.peakSource) = estimatePeakGflops(ctx.device());
  double flopsPerPixel = 0;
  for (size_t i = 0; i < on.size(); ++i) {
    report.chainSteps.push_back(stepLabel(static_cast<int>(i + 1), given[i], on[i]));
    report.filterSize = std::max(report.filterSize, 2 * on[i].radius() + 1);
    report.declaredFilterSize = std::max(report.declaredFilterSize, 2 * given[i].radius() + 1);
    flopsPerPixel += stepFlops(on[i]);
  }

  const auto wanted = [&](std::string_view name) {
    return options.only.empty() ||
           std::find(options.only.begin(), options.only.end(), name) != options.only.end();
  };
  std::vector<std::pair<std::string, bool>> jobs;  // {strategy, fused}
  if (wanted(kFusedRow)) jobs.emplace_back(std::string(kFusedRow), true);
  for (const auto& entry : strategyRegistry())
    if (wanted(entry.name) && (entry.name != kAutoStrategy || options.includeAuto))
      jobs.emplace_back(std::string(entry.name), false);
  ChainRows rows(ctx, chain, frame, options, progress,
                 static_cast<int>(jobs.size()) * (options.warmup + options.iterations));
  for (const auto& [strategy, fused] : jobs) {
    ComparisonRow row = rows.run(strategy, fused);
    if (rows.cancelled()) break;
    report.rows.push_back(std::move(row));
  }
  report.cancelled = rows.cancelled();
  rankRows(report, flopsPerPixel);
  report.verdict = chainVerdict(report);
  return report;
}

void markWhatRunsNow(ComparisonReport& report, const LiveChainRun& now) {
  if (report.chainSteps.empty()) return;
  ComparisonRow *live = nullptr, *fastest = nullptr;
  for (ComparisonRow& row : report.rows) {
    row.runsNow =
        now.fused ? row.chainMode == "fused" : row.chainMode == "steps" && row.strategy == now.strategy;
    if (row.runsNow) live = &row;
    if (row.ok() && (!fastest || row.kernelMedianMs < fastest->kernelMedianMs)) fastest = &row;
    row.fastest = false;
  }
  if (!fastest) return;
  const bool keep = live && live->ok() && live->kernelMedianMs <= fastest->kernelMedianMs * (1 + kStarMargin);
  (keep ? live : fastest)->fastest = true;
  report.verdict = chainVerdict(report);
}

std::string chainVerdict(const ComparisonReport& report) {
  if (report.chainSteps.empty()) return {};
  const ComparisonRow *fused = nullptr, *steps = nullptr, *star = nullptr, *now = nullptr, *best = nullptr;
  for (const ComparisonRow& r : report.rows) {
    if (r.chainMode == "fused") fused = &r;
    if (r.ok() && r.chainMode == "steps" && (!steps || r.kernelMedianMs < steps->kernelMedianMs)) steps = &r;
    if (r.ok() && (!best || r.kernelMedianMs < best->kernelMedianMs)) best = &r;
    if (r.fastest) star = &r;
    if (r.runsNow) now = &r;
  }
  std::string text;
  if (fused && fused->ok() && steps) {
    const double f = fused->kernelMedianMs, s = steps->kernelMedianMs;
    text = f <= s ? "Fused (the whole chain in one launch) is " + times(s / f) +
                        " faster than step by step: " + ms(f) + " against " + ms(s) + " with " +
                        steps->strategy + ", the fastest step-by-step row."
                  : "Step by step is " + times(f / s) + " faster than fused: " + ms(s) + " with " +
                        steps->strategy + ", the fastest step-by-step row, against " + ms(f) +
                        " for the whole chain in one launch.";
  } else if (fused && !fused->ok()) {
    text =
        "Fused cannot run this chain here (" + fused->reason + ")" +
        (steps ? "; the fastest step by step is " + steps->strategy + ", " + ms(steps->kernelMedianMs) + "."
               : ".");
  } else if (steps) {
    text = "The fastest step by step is " + steps->strategy + ", " + ms(steps->kernelMedianMs) +
           (fused ? "." : "; fused was not measured.");
  } else if (fused) {
    text = "Fused: " + ms(fused->kernelMedianMs) + "; no strategy ran the chain step by step.";
  }
  if (now && star && now != star && now->ok())
    text += " ★ " + rowName(*star) + " is " + times(now->kernelMedianMs / star->kernelMedianMs) +
            " faster than what the preview runs now (" + rowName(*now) + ", " + ms(now->kernelMedianMs) +
            ").";
  else if (now && now == star)
    text += now == best ? " The preview runs the fastest, " + rowName(*now) + ", now."
                        : " The preview runs " + rowName(*now) + " now and keeps ★: no row is more than " +
                              std::to_string(static_cast<int>(kStarMargin * 100)) + " % faster.";
  return text;
}

}  // namespace convolab::lab
