// SPDX-License-Identifier: MIT
// `bench --ksweep`: see bench_ksweep.hpp. The run, the per-K summary, and the report's "ksweep" parts.
#include "bench_ksweep.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "bench_opencv.hpp"
#include "bench_strategy.hpp"
#include "commands.hpp"
#include "convolab/error.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "cv/filter2d.hpp"
#include "cv/mat_adapter.hpp"

namespace convolab::cli {
namespace bench {
namespace {

int parseK(const std::string& item, const std::string& text) {
  size_t used = 0;
  int k = 0;
  try {
    k = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw Error(ErrorKind::Usage, "--ksweep '" + item + "': expected K, A:B or A:B:STEP, e.g. 3:63:2");
  if (k < 1 || k > kMaxFilterSize || k % 2 == 0)
    throw Error(ErrorKind::Usage, "--ksweep '" + item + "': " + text + " is not an odd K from 1 to " +
                                      std::to_string(kMaxFilterSize));
  return k;
}

/// The largest frame whose rows are checked against the CPU reference when OpenCV does not run: the reference
/// (double accumulation) takes K² multiply-adds a pixel, seconds at large K.
constexpr double kMaxReferenceWork = 1280.0 * 720 * 15 * 15;

/// Our rows at one K; `over` holds the strategies that went over the budget at a smaller K, and gains those
/// that go over it now.
std::vector<StrategyResult> runRows(const std::shared_ptr<Context>& ctx, const BenchOptions& o,
                                    const std::vector<std::string>& strategies, const FilterSet& filter,
                                    const Image& frame, const std::optional<cv::Mat>& expected, double peak,
                                    std::map<std::string, std::string>& over) {
  std::vector<StrategyResult> rows;
  for (const auto& name : strategies) {
    if (auto it = over.find(name); it != over.end()) {
      StrategyResult r;
      r.strategy = name;
      r.size = Size{frame.width, frame.height}.label();
      r.width = frame.width;
      r.height = frame.height;
      r.k = filter.size();
      r.filter = o.filter;
      r.status = "skipped";
      r.reason = it->second;
      printRow(r);
      rows.push_back(std::move(r));
      continue;
    }
    const auto t0 = Clock::now();
    StrategyResult r = runStrategy(ctx, name, filter, o.filter, frame, o, expected, peak);
    const double seconds = msSince(t0) / 1000;
    if (name != kAutoStrategy && seconds > o.ksweepBudget && r.status != "skipped")
      over[name] = "took " + fmt(seconds, 1) + " s at K " + std::to_string(filter.size()) +
                   " (build and timing), over --ksweep-budget " + fmt(o.ksweepBudget, 0) +
                   " s: not run at larger K";
    printRow(r);
    rows.push_back(std::move(r));
  }
  return rows;
}

void printPoint(const KSweepPoint& p) {
  std::string line = p.size + " K " + std::to_string(p.k) + ": fastest " +
                     (p.fastestMs > 0 ? p.fastest + " " + fmt(p.fastestMs) + " ms" : std::string("none"));
  if (p.autoMs)
    line += "; auto ran " + p.autoActive + " " + fmt(*p.autoMs) + " ms" +
            (p.autoGap ? " (" + fmt(100 * *p.autoGap, 1) + " % over the fastest)" : "");
  if (p.cvPerChannelMs) line += "; OpenCV CPU per channel " + fmt(*p.cvPerChannelMs) + " ms";
  progress(line);
}

}  // namespace

std::vector<int> parseKSweep(const std::vector<std::string>& items) {
  std::set<int> ks;
  for (const auto& item : items) {
    std::vector<std::string> parts;
    std::stringstream in(item);
    for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
    if (parts.empty() || parts.size() > 3)
      throw Error(ErrorKind::Usage, "--ksweep '" + item + "': expected K, A:B or A:B:STEP, e.g. 3:63:2");
    const int a = parseK(item, parts[0]);
    const int b = parts.size() > 1 ? parseK(item, parts[1]) : a;
    int step = 2;
    if (parts.size() == 3) {
      size_t used = 0;
      try {
        step = std::stoi(parts[2], &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != parts[2].size() || step < 2 || step % 2 != 0)
        throw Error(ErrorKind::Usage,
                    "--ksweep '" + item + "': STEP must be an even number ≥ 2 (K stays odd)");
    }
    if (b < a) throw Error(ErrorKind::Usage, "--ksweep '" + item + "': " + parts[1] + " < " + parts[0]);
    for (int k = a; k <= b; k += step) ks.insert(k);
  }
  if (ks.empty()) throw Error(ErrorKind::Usage, "--ksweep: no K given");
  return {ks.begin(), ks.end()};
}

KSweepPoint summariseK(const std::vector<StrategyResult>& rows, const std::vector<OpenCVResult>& cv,
                       const std::string& size, int k) {
  KSweepPoint p;
  p.size = size;
  p.k = k;
  for (const auto& r : rows) {
    if (r.status != "ok" || r.size != size || r.k != k) continue;
    const std::string name = r.active.empty() ? r.strategy : r.active;
    if (r.strategy == kAutoStrategy) {
      p.autoActive = name;
      p.autoMs = r.kernel.median;
      continue;
    }
    if (p.fastestMs <= 0 || r.kernel.median < p.fastestMs) p.fastest = name, p.fastestMs = r.kernel.median;
    if (r.strategy == "fft")
      p.fftMs = r.kernel.median;
    else if (!p.bestDirectMs || r.kernel.median < *p.bestDirectMs)
      p.bestDirect = name, p.bestDirectMs = r.kernel.median;
  }
  if (p.autoMs && p.fastestMs > 0) p.autoGap = *p.autoMs / p.fastestMs - 1;
  std::string picked = p.autoActive.rfind("auto:", 0) == 0 ? p.autoActive.substr(5) : p.autoActive;
  picked = picked.substr(0, picked.find('/'));
  for (const auto& r : rows)
    if (r.status == "ok" && r.size == size && r.k == k && r.strategy == picked && p.fastestMs > 0)
      p.choiceGap = r.kernel.median / p.fastestMs - 1;
  for (const auto& c : cv) {
    if (c.status != "ok" || c.size != size || c.k != k) continue;
    if (c.variant == "cv_cpu_per_channel") p.cvPerChannelMs = c.ms.median;
    if (c.variant == "cv_cpu_single_filter") p.cvSingleMs = c.ms.median;
  }
  return p;
}

void runKSweep(const std::shared_ptr<Context>& ctx, const BenchOptions& o, const std::vector<Size>& sizes,
               const std::vector<std::string>& strategies, BenchReport& report) {
  const std::vector<int> ks = parseKSweep(o.ksweep);
  report.config["ksweep"] = ks;
  report.config["ksweep_budget_s"] = o.ksweepBudget;
  const bool cvOpenCL = !o.skipOpenCV && report.opencvInfo.openclUsed && ctx->device().isGpu;
  if (!o.skipOpenCV && report.opencvInfo.openclUsed && !ctx->device().isGpu)
    printNote(
        "--ksweep: OpenCV's OpenCL (UMat) variants run on a GPU only (on PoCL its filter2D takes 25 s a "
        "1080p frame at K = 31)");
  for (const Size& size : sizes) {
    const Image frame = randomFrame(size);
    std::map<std::string, std::string> over;
    for (const int k : ks) {
      std::string description;
      FilterSet filter = benchFilter(o.filter, k, description);
      if (!o.border.empty()) filter = filter.withBorder(*parseBorder(o.border));
      const auto cvReason = opencv::opencvUnsupportedReason(filter);
      OpenCVRun cvRun{
          filter, opencv::channelKernels(filter), report.opencvInfo, o, size, opencv::asMat(frame)};
      std::optional<cv::Mat> expected;
      std::vector<OpenCVResult> cvResults;
      if (!o.skipOpenCV && !cvReason) {
        progress(size.label() + " K " + std::to_string(k) + " OpenCV filter2D on the CPU");
        cv::Mat e;
        cvResults = cvRun.cpu(e);
        expected = e;
      } else if (static_cast<double>(size.width) * size.height * k * k <= kMaxReferenceWork) {
        Image ref(size.width, size.height);
        referenceConvolve(frame.view(), ref.mutableView(), filter);
        expected = opencv::asMat(ref).clone();
      }
      std::vector<StrategyResult> rows =
          runRows(ctx, o, strategies, filter, frame, expected, report.device.peakGflops, over);
      if (cvOpenCL && !cvReason)
        for (auto& r : cvRun.opencl()) cvResults.push_back(std::move(r));
      fillComparisons(cvResults, rows, size.label());
      report.ksweep.push_back(summariseK(rows, cvResults, size.label(), k));
      printPoint(report.ksweep.back());
      const KSweepPoint& p = report.ksweep.back();
      if (std::find(strategies.begin(), strategies.end(), kAutoStrategy) != strategies.end())
        report.autoChoice.emplace_back(size.label() + " K " + std::to_string(k),
                                       p.autoMs ? p.autoActive : std::string("did not run"));
      for (auto& r : rows) report.results.push_back(std::move(r));
      for (auto& r : cvResults) report.opencv.push_back(std::move(r));
    }
  }
}

}  // namespace bench

namespace {

using nlohmann::json;

json optional(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

/// Per size: the smallest swept K from which fft is the fastest row at every larger swept K where it ran, the
/// largest K where another row beat it, and auto's largest gap to the fastest row.
struct Crossover {
  std::string size;
  std::optional<int> fftFrom, otherUpTo;
  std::optional<double> autoMaxGap, choiceMaxGap;
};

std::vector<Crossover> crossovers(const std::vector<KSweepPoint>& points) {
  std::vector<Crossover> out;
  for (const auto& p : points) {
    if (out.empty() || out.back().size != p.size) out.push_back({p.size, {}, {}, {}, {}});
    Crossover& c = out.back();
    if (p.autoGap) c.autoMaxGap = std::max(c.autoMaxGap.value_or(*p.autoGap), *p.autoGap);
    if (p.choiceGap) c.choiceMaxGap = std::max(c.choiceMaxGap.value_or(*p.choiceGap), *p.choiceGap);
    if (!p.fftMs) continue;
    if (p.fastest == "fft") {
      if (!c.fftFrom) c.fftFrom = p.k;
    } else {
      c.otherUpTo = p.k;
      c.fftFrom.reset();  // fft lost again at a larger K: the crossover lies above
    }
  }
  return out;
}

std::string percent(const std::optional<double>& v) {
  return v ? (*v >= 0 ? "+" : "") + bench::fmt(100 * *v, 1) + " %" : std::string("-");
}

std::string ms(const std::optional<double>& v) {
  return v ? bench::fmt(*v) : std::string("-");
}

}  // namespace

json ksweepJson(const BenchReport& r) {
  json points = json::array();
  for (const auto& p : r.ksweep)
    points.push_back({{"size", p.size},
                      {"k", p.k},
                      {"fastest", p.fastest},
                      {"fastest_kernel_ms", p.fastestMs > 0 ? json(p.fastestMs) : json(nullptr)},
                      {"auto_active", p.autoActive},
                      {"auto_kernel_ms", optional(p.autoMs)},
                      {"auto_over_fastest", optional(p.autoGap)},
                      {"choice_over_fastest", optional(p.choiceGap)},
                      {"fft_kernel_ms", optional(p.fftMs)},
                      {"best_without_fft", p.bestDirect},
                      {"best_without_fft_kernel_ms", optional(p.bestDirectMs)},
                      {"cv_cpu_per_channel_ms", optional(p.cvPerChannelMs)},
                      {"cv_cpu_single_filter_ms", optional(p.cvSingleMs)}});
  json cross = json::array();
  for (const auto& c : crossovers(r.ksweep))
    cross.push_back({{"size", c.size},
                     {"fft_fastest_from_k", c.fftFrom ? json(*c.fftFrom) : json(nullptr)},
                     {"other_fastest_up_to_k", c.otherUpTo ? json(*c.otherUpTo) : json(nullptr)},
                     {"auto_max_over_fastest", optional(c.autoMaxGap)},
                     {"choice_max_over_fastest", optional(c.choiceMaxGap)}});
  return {{"k", r.config.value("ksweep", json::array())},
          {"budget_s", r.config.value("ksweep_budget_s", 0.0)},
          {"points", points},
          {"crossover", cross}};
}

std::string ksweepMarkdown(const BenchReport& r) {
  if (r.ksweep.empty()) return "";
  std::ostringstream md;
  for (const auto& c : crossovers(r.ksweep)) {
    md << "\n## K sweep at " << c.size << " (kernel ms, median)\n\n"
       << "| K | fastest | ms | auto ran | ms | auto vs fastest | its row vs fastest | fft | best without "
          "fft | "
          "ms | OpenCV CPU per channel | OpenCV CPU one call |\n"
          "|---:|---|---:|---|---:|---:|---:|---:|---|---:|---:|---:|\n";
    for (const auto& p : r.ksweep) {
      if (p.size != c.size) continue;
      md << "| " << p.k << " | " << (p.fastestMs > 0 ? p.fastest : "-") << " | "
         << (p.fastestMs > 0 ? bench::fmt(p.fastestMs) : "-") << " | " << (p.autoMs ? p.autoActive : "-")
         << " | " << ms(p.autoMs) << " | " << percent(p.autoGap) << " | " << percent(p.choiceGap) << " | "
         << ms(p.fftMs) << " | " << (p.bestDirectMs ? p.bestDirect : "-") << " | " << ms(p.bestDirectMs)
         << " | " << ms(p.cvPerChannelMs) << " | " << ms(p.cvSingleMs) << " |\n";
    }
    md << "\nCrossover: ";
    if (c.fftFrom)
      md << "fft is the fastest from K = " << *c.fftFrom << " on";
    else
      md << "fft is not the fastest at the largest K swept";
    if (c.otherUpTo) md << "; another strategy beat it up to K = " << *c.otherUpTo;
    if (c.autoMaxGap) md << "; auto at most " << percent(c.autoMaxGap) << " over the fastest row";
    if (c.choiceMaxGap) md << " (the row of the strategy it ran at most " << percent(c.choiceMaxGap) << ")";
    md << ".\n";
  }
  return md.str();
}

}  // namespace convolab::cli
