// SPDX-License-Identifier: MIT
// StrategyComparison: every registry strategy on one frame, timed with profiling events, checked against
// the CPU reference.
#include "strategy_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>

#include "convolab/error.hpp"
#include "convolab/percentile.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"

namespace convolab::lab {
namespace {

double eventMs(const cl::Event& e) {
  return static_cast<double>(e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                             e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
         1e-6;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

struct Job {
  std::string strategy, variant;
};

class Runner {
 public:
  Runner(Context& ctx, const FilterSet& filter, const ImageView& frame, const ComparisonOptions& options,
         const ComparisonProgress& progress, int totalUnits)
      : m_ctx(ctx), m_filter(filter), m_options(options), m_progress(progress), m_total(totalUnits) {
    m_input = Image(frame.width, frame.height);
    for (int y = 0; y < frame.height; ++y)
      std::memcpy(m_input.pixels.data() + static_cast<size_t>(y) * m_input.stride, frame.row(y),
                  m_input.stride);
    m_output = Image(frame.width, frame.height);
    m_bytes = m_input.pixels.size();
  }

  bool cancelled() const { return m_cancelled; }

  bool tick(const std::string& label) {
    if (m_cancelled) return false;
    if (m_progress && !m_progress(m_done, m_total, label)) m_cancelled = true;
    return !m_cancelled;
  }

  ComparisonRow run(const Job& job, StrategyId* autoActive) {
    ComparisonRow row;
    row.strategy = job.strategy;
    row.variant = job.variant;
    row.active = StrategyId{job.strategy};
    const std::string label = job.strategy + (job.variant.empty() ? "" : " " + job.variant);
    const int units = m_options.warmup + m_options.iterations;
    try {
      std::unique_ptr<Strategy> s = createStrategy(job.strategy);
      if (auto reason = s->unsupportedReason(m_ctx, m_filter)) {
        row.status = "declined";
        row.reason = *reason;
        m_done += units;
        return row;
      }
      if (!tick(label + ": preparing")) return row;
      s->setTuningVariant(job.variant);
      s->prepare(m_ctx, m_filter, m_input.width, m_input.height);
      row.active = s->activeId();
      if (autoActive && job.strategy == kAutoStrategy) *autoActive = row.active;
      ensureBuffers();
      const FrameBuffers frame{m_in, m_out, m_input.width, m_input.height};
      std::vector<double> kernel, upload, download;
      for (int i = 0; i < units; ++i) {
        if (!tick(label)) return row;
        cl::Event up, down;
        cl::CommandQueue& q = m_ctx.queue();
        q.enqueueWriteBuffer(m_in, CL_FALSE, 0, m_bytes, m_input.pixels.data(), nullptr, &up);
        const std::vector<NamedEvent> events = s->enqueue(m_ctx, frame, {up});
        const std::vector<cl::Event> last{events.empty() ? up : events.back().event};
        q.enqueueReadBuffer(m_out, CL_FALSE, 0, m_bytes, m_output.pixels.data(), &last, &down);
        down.wait();
        ++m_done;
        if (i < m_options.warmup) continue;
        double k = 0;
        for (const auto& e : events) k += eventMs(e.event);
        kernel.push_back(k);
        upload.push_back(eventMs(up));
        download.push_back(eventMs(down));
      }
      const SampleStats stats = SampleStats::of(kernel);
      row.kernelMedianMs = stats.median;
      row.kernelP95Ms = stats.p95;
      row.kernelMinMs = stats.min;
      row.uploadMs = median(upload);
      row.downloadMs = median(download);
      row.maxDiff = maxDiffToReference();
      row.status = "ok";
    } catch (const std::exception& e) {
      markFailed(row, e);
    }
    return row;
  }

 private:
  void ensureBuffers() {
    if (m_in()) return;
    m_in = cl::Buffer(m_ctx.context(), CL_MEM_READ_ONLY, m_bytes);
    m_out = cl::Buffer(m_ctx.context(), CL_MEM_READ_WRITE, m_bytes);
  }

  int maxDiffToReference() {
    if (m_reference.pixels.empty()) {
      m_reference = Image(m_input.width, m_input.height);
      referenceConvolve(m_input.view(), m_reference.mutableView(), m_filter);
    }
    return maxByteDiff(m_output, m_reference);
  }

  Context& m_ctx;
  const FilterSet& m_filter;
  const ComparisonOptions& m_options;
  const ComparisonProgress& m_progress;
  Image m_input, m_output, m_reference;
  size_t m_bytes = 0;
  cl::Buffer m_in, m_out;
  int m_done = 0;
  int m_total = 0;
  bool m_cancelled = false;
};

}  // namespace

void markFailed(ComparisonRow& row, const std::exception& e) {
  row.status = "failed";
  row.reason = e.what();
  if (const auto* cl = dynamic_cast<const cl::Error*>(&e)) row.reason += " (" + clErrorName(cl->err()) + ")";
}

int maxByteDiff(const Image& a, const Image& b) {
  int worst = 0;
  for (size_t i = 0; i < std::min(a.pixels.size(), b.pixels.size()); ++i)
    worst = std::max(worst, std::abs(int(a.pixels[i]) - int(b.pixels[i])));
  return worst;
}

std::pair<double, std::string> estimatePeakGflops(const DeviceInfo& d) {
  const std::string vendor = lower(d.vendor), name = lower(d.name);
  int lanes = 0;
  std::string why;
  if (d.isGpu) {
    if (vendor.find("nvidia") != std::string::npos) {
      lanes = 128;
      why = "NVIDIA: 128 FP32 lanes per SM (Ampere GA10x, Ada, Hopper; older GPUs have 64)";
    } else if (vendor.find("amd") != std::string::npos ||
               vendor.find("advanced micro") != std::string::npos) {
      lanes = 64;
      why = "AMD: 64 lanes per CU";
    } else if (vendor.find("intel") != std::string::npos) {
      lanes = 16;
      why = "Intel: 8 lanes x 2 ALUs per EU";
    } else {
      lanes = 32;
      why = "unknown GPU: 32 lanes per CU assumed";
    }
  } else {
    lanes = name.find("avx512") != std::string::npos ? 32 : 16;
    why = lanes == 32 ? "CPU: AVX-512, 16 lanes x 2 FMA ports per core"
                      : "CPU: AVX2, 8 lanes x 2 FMA ports per core";
  }
  const double gflops = static_cast<double>(d.computeUnits) * d.clockMHz * 2.0 * lanes / 1000.0;
  std::ostringstream how;
  how << "estimate: " << d.computeUnits << " CUs x " << d.clockMHz << " MHz x 2 (FMA) x " << lanes
      << " lanes (" << why << ")";
  return {gflops, how.str()};
}

ComparisonReport compareStrategies(Context& ctx, const FilterSet& declared, const ImageView& frame,
                                   const ComparisonOptions& options, const ComparisonProgress& progress) {
  // Every row on the effective filter, as auto runs it: a zero ring costs the other rows its taps (issue 35:
  // Emboss 7x7, auto -> dynamic 0.62 ms beside a dynamic row of 2.81 ms on the padded filter).
  const FilterSet filter = declared.trimmedToSupport();
  if (frame.width < 1 || frame.height < 1 || !frame.data)
    throw Error(ErrorKind::BadInput, "compare strategies: there is no frame to run on");
  ComparisonReport report;
  report.device = ctx.device().name;
  report.deviceSpec = ctx.device().spec();
  report.width = frame.width;
  report.height = frame.height;
  report.filterSize = filter.size();
  report.declaredFilterSize = declared.size();
  report.filterName = filter.name();
  report.iterations = options.iterations;
  std::tie(report.peakGflops, report.peakSource) = estimatePeakGflops(ctx.device());

  std::vector<Job> jobs;
  for (const auto& entry : strategyRegistry()) {
    const std::string name(entry.name);
    if (!options.only.empty() &&
        std::find(options.only.begin(), options.only.end(), name) == options.only.end())
      continue;
    if (name == kAutoStrategy) {
      if (options.includeAuto) jobs.push_back({name, ""});
      continue;
    }
    std::vector<std::string> variants{""};
    try {
      variants = createStrategy(name)->tuningVariants(ctx, filter);
      if (variants.empty()) variants = {""};
    } catch (const std::exception&) {
    }
    if (!options.allVariants) variants.resize(1);
    for (const auto& v : variants) jobs.push_back({name, v});
  }
  const int total = static_cast<int>(jobs.size()) * (options.warmup + options.iterations);
  Runner runner(ctx, filter, frame, options, progress, total);
  for (const Job& job : jobs) {
    ComparisonRow row = runner.run(job, &report.autoActive);
    if (runner.cancelled()) break;
    report.rows.push_back(std::move(row));
  }
  report.cancelled = runner.cancelled();

  // auto's choice: auto:tiled/16x8 → the tiled row with variant 16x8 (or the default row of tiled).
  if (report.autoActive.viaAuto) {
    const std::string& strategy = report.autoActive.name;
    const std::string& variant = report.autoActive.variant;
    ComparisonRow* best = nullptr;
    for (auto& row : report.rows)
      if (row.strategy == strategy && (row.variant == variant || (!best && variant.empty()))) best = &row;
    if (!best)
      for (auto& row : report.rows)
        if (row.strategy == strategy && !best) best = &row;
    if (best) best->autoChoice = true;
  }

  rankRows(report, 2.0 * filter.size() * filter.size() * kChannels);
  return report;
}

void rankRows(ComparisonReport& report, double flopsPerPixel) {
  const double pixels = static_cast<double>(report.width) * report.height;
  for (auto& row : report.rows) {
    if (!row.ok() || row.kernelMedianMs <= 0) continue;
    row.mpixPerS = pixels / (row.kernelMedianMs * 1e3);
    row.gflops = pixels * flopsPerPixel / (row.kernelMedianMs * 1e6);
    row.peakFraction = report.peakGflops > 0 ? row.gflops / report.peakGflops : 0;
  }
  auto rankOf = [](const ComparisonRow& r) { return r.ok() ? 0 : r.status == "failed" ? 1 : 2; };
  std::stable_sort(report.rows.begin(), report.rows.end(),
                   [&](const ComparisonRow& a, const ComparisonRow& b) {
                     if (rankOf(a) != rankOf(b)) return rankOf(a) < rankOf(b);
                     return a.ok() && a.kernelMedianMs < b.kernelMedianMs;
                   });
  // ★ is the fastest row; when that is auto's own row (nothing beat it), ★ stays on auto, so "Make live" on
  // the star never makes the preview slower than the default.
  for (auto& row : report.rows)
    if (row.ok()) {
      row.fastest = true;
      break;
    }
}

std::string comparisonToJson(const ComparisonReport& report) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : report.rows) {
    nlohmann::json j{{"strategy", r.strategy},     {"variant", r.variant}, {"active", r.active.toString()},
                     {"status", r.status},         {"reason", r.reason},   {"fastest", r.fastest},
                     {"auto_choice", r.autoChoice}};
    if (r.ok()) {
      j["kernel_ms_median"] = r.kernelMedianMs;
      j["kernel_ms_p95"] = r.kernelP95Ms;
      j["kernel_ms_min"] = r.kernelMinMs;
      j["upload_ms_median"] = r.uploadMs;
      j["download_ms_median"] = r.downloadMs;
      j["mpix_per_s"] = r.mpixPerS;
      j["gflops"] = r.gflops;
      j["peak_fraction"] = r.peakFraction;
      j["max_diff_vs_reference"] = r.maxDiff;
    } else {
      j["kernel_ms_median"] = nullptr;
      j["kernel_ms_p95"] = nullptr;
      j["max_diff_vs_reference"] = nullptr;
    }
    if (!r.chainMode.empty()) {  // a chain (compare_chain.hpp)
      j["mode"] = r.chainMode;
      j["step_ms_median"] = r.stepMedianMs;
      j["step_active"] = r.stepActive;
      j["runs_now"] = r.runsNow;
    }
    rows.push_back(std::move(j));
  }
  nlohmann::json doc{{"device", report.device},
                     {"device_spec", report.deviceSpec},
                     {"frame", {report.width, report.height}},
                     {"filter",
                      {{"name", report.filterName},
                       {"size", report.filterSize},
                       {"declared_size", report.declaredFilterSize}}},
                     {"iterations", report.iterations},
                     {"peak_gflops", report.peakGflops},
                     {"peak_source", report.peakSource},
                     {"auto", report.autoActive.toString()},
                     {"cancelled", report.cancelled},
                     {"strategies", rows}};
  if (!report.chainSteps.empty()) doc["chain"] = {{"steps", report.chainSteps}, {"verdict", report.verdict}};
  return doc.dump(2) + "\n";
}

namespace {
std::string statusText(const ComparisonRow& r) {
  if (r.ok()) return "ok";
  return r.status + ": " + r.reason;
}
std::string marks(const ComparisonRow& r) {
  std::string m;
  if (r.fastest) m += " (fastest)";
  if (r.autoChoice) m += " (auto's choice)";
  if (r.runsNow) m += " (runs now)";
  return m;
}
/// A row's name and variant columns: a chain's rows say how they ran, a step-by-step row each step's median.
std::pair<std::string, std::string> nameAndVariant(const ComparisonRow& r) {
  if (r.chainMode.empty()) return {r.strategy, r.variant.empty() ? "-" : r.variant};
  if (r.chainMode == "fused") return {r.strategy + " (one launch)", "-"};
  std::string steps;
  for (double ms : r.stepMedianMs) steps += (steps.empty() ? "" : " + ") + fixed(ms, 3);
  return {r.strategy + " (step by step)", steps.empty() ? "-" : steps};
}
std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}
}  // namespace

std::string comparisonToMarkdown(const ComparisonReport& report) {
  std::ostringstream md;
  md << "### Strategies on " << report.device << ", " << report.width << "x" << report.height << ", ";
  if (report.chainSteps.empty())
    md << report.filterSize << "x" << report.filterSize << " filter";
  else
    md << "a chain of " << report.chainSteps.size() << " steps";
  md << (report.filterName.empty() ? "" : " (" + report.filterName + ")") << "\n\n";
  if (!report.chainSteps.empty()) {
    md << "Steps:";
    for (const std::string& step : report.chainSteps) md << " " << step << ";";
    md << " each filter step trimmed to its support. Step-by-step rows run every step with their strategy, "
          "one "
          "launch a step (the variant column: each step's median; the kernel median is of their sums); "
          "fused runs the whole chain in one launch.\n\n**"
       << report.verdict << "**\n\n";
  } else if (report.declaredFilterSize != report.filterSize)
    md << "Every row ran the " << report.declaredFilterSize << "x" << report.declaredFilterSize
       << " filter trimmed to its support, " << report.filterSize << "x" << report.filterSize
       << " (zero rings cut off, the same output), as auto runs it.\n\n";
  md << "Kernel times: median and p95 of " << report.iterations
     << " runs (OpenCL profiling events). FP32 peak " << fixed(report.peakGflops, 0) << " GFLOP/s, "
     << report.peakSource << ". Auto ran "
     << (report.autoActive.name.empty() ? "-" : report.autoActive.toString()) << ".\n\n";
  md << "| strategy | variant | kernel median ms | p95 ms | upload ms | download ms | Mpix/s | GFLOP/s | % "
        "peak | "
        "max diff | status |\n";
  md << "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|\n";
  for (const auto& r : report.rows) {
    const auto [name, variant] = nameAndVariant(r);
    md << "| " << name << marks(r) << " | " << variant << " | ";
    if (r.ok())
      md << fixed(r.kernelMedianMs, 3) << " | " << fixed(r.kernelP95Ms, 3) << " | " << fixed(r.uploadMs, 3)
         << " | " << fixed(r.downloadMs, 3) << " | " << fixed(r.mpixPerS, 1) << " | " << fixed(r.gflops, 1)
         << " | " << fixed(100 * r.peakFraction, 1) << " | " << r.maxDiff << " | ";
    else
      md << "- | - | - | - | - | - | - | - | ";
    md << statusText(r) << " |\n";
  }
  return md.str();
}

std::string comparisonToCsv(const ComparisonReport& report) {
  std::ostringstream csv;
  csv << "strategy,variant,active,status,reason,kernel_ms_median,kernel_ms_p95,upload_ms,download_ms,mpix_"
         "per_s,"
         "gflops,peak_percent,max_diff_vs_reference,fastest,auto_choice,mode,step_ms_median\n";
  for (const auto& r : report.rows) {
    csv << csvField(r.strategy) << "," << csvField(r.variant) << "," << csvField(r.active.toString()) << ","
        << r.status << "," << csvField(r.reason) << ",";
    if (r.ok())
      csv << fixed(r.kernelMedianMs, 4) << "," << fixed(r.kernelP95Ms, 4) << "," << fixed(r.uploadMs, 4)
          << "," << fixed(r.downloadMs, 4) << "," << fixed(r.mpixPerS, 2) << "," << fixed(r.gflops, 2) << ","
          << fixed(100 * r.peakFraction, 2) << "," << r.maxDiff;
    else
      csv << ",,,,,,,";
    std::string steps;  // a step-by-step row of a chain: each step's median, separated by ';'
    for (double ms : r.stepMedianMs) steps += (steps.empty() ? "" : ";") + fixed(ms, 4);
    csv << "," << (r.fastest ? 1 : 0) << "," << (r.autoChoice ? 1 : 0) << "," << r.chainMode << "," << steps
        << "\n";
  }
  return csv.str();
}

}  // namespace convolab::lab
