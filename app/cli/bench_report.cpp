// SPDX-License-Identifier: MIT
// `bench` reports: the JSON document (schema in docs/CLI.md) and the Markdown tables.
#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>
#include <utility>

#include "bench_report.hpp"

namespace convolab::cli {
namespace {

using nlohmann::json;

json orNull(bool present, double v) {
  return present ? json(v) : json(nullptr);
}

std::string num(double v, int digits = 3) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

json toJson(const BenchReport& r) {
  const DeviceReport& d = r.device;
  json doc;
  doc["device"] = {
      {"spec", d.spec},
      {"name", d.name},
      {"platform", d.platform},
      {"vendor", d.vendor},
      {"driver", d.driver},
      {"opencl_version", d.openclVersion},
      {"type", d.isGpu ? "gpu" : "cpu"},
      {"compute_units", d.computeUnits},
      {"clock_mhz", d.clockMHz},
      {"global_mem_bytes", d.globalMemBytes},
      {"max_alloc_bytes", d.maxAllocBytes},
      {"peak_gflops", orNull(d.peakGflops > 0, d.peakGflops)},
      {"peak_source", d.peakSource},
      {"theoretical_gflops", orNull(d.theoreticalGflops.has_value(), d.theoreticalGflops.value_or(0))},
      {"theoretical_source", d.theoreticalSource},
      {"fma_probe_gflops", orNull(d.probeGflops.has_value(), d.probeGflops.value_or(0))}};
  doc["config"] = r.config;
  doc["auto_choice"] = json::array();
  for (const auto& [size, choice] : r.autoChoice)
    doc["auto_choice"].push_back({{"size", size}, {"choice", choice}});

  doc["results"] = json::array();
  for (const auto& s : r.results) {
    const bool ok = s.status == "ok";
    json stages = json::object();
    for (const auto& [name, ms] : s.stageMedians) stages[name] = ms;
    doc["results"].push_back(
        {{"strategy", s.strategy},
         {"active", s.active},
         {"size", s.size},
         {"width", s.width},
         {"height", s.height},
         {"k", s.k},
         {"filter", s.filter},
         {"status", s.status},
         {"reason", s.reason},
         {"kernel_ms_median", orNull(ok, s.kernel.median)},
         {"kernel_ms_p95", orNull(ok, s.kernel.p95)},
         {"kernel_ms_min", orNull(ok, s.kernel.min)},
         {"upload_ms_median", orNull(ok, s.upload.median)},
         {"download_ms_median", orNull(ok, s.download.median)},
         {"frame_ms_median", orNull(ok, s.frame.median)},
         {"frame_ms_p95", orNull(ok, s.frame.p95)},
         {"mpix_per_s", orNull(ok, s.mpixPerS)},
         {"gflops", orNull(ok, s.gflops)},
         {"peak_fraction", orNull(ok && s.peakFraction > 0, s.peakFraction)},
         {"kernel_stages_ms_median", stages},
         {"max_abs_diff", s.maxAbsDiff ? json(*s.maxAbsDiff) : json(nullptr)},
         {"pinned_frame_ms_median",
          orNull(s.pinnedFrame.has_value(), s.pinnedFrame ? s.pinnedFrame->median : 0)},
         {"pinned_device_ms_median",
          orNull(s.pinnedDevice.has_value(), s.pinnedDevice ? s.pinnedDevice->median : 0)},
         {"stream_fps", orNull(s.streamFps.has_value(), s.streamFps.value_or(0))},
         {"kernel_loop",
          [&] {
            nlohmann::json loops = nlohmann::json::array();
            for (const auto& l : s.loops)
              loops.push_back({{"variant", l.variant},
                               {"status", l.status},
                               {"event_ms_median", l.eventMs},
                               {"event_ms_min", l.minEventMs},
                               {"span_ms_per_launch", l.spanMs},
                               {"wall_ms_per_launch", l.wallMs}});
            return loops;
          }()},
         {"notices", s.notices}});
  }

  const OpenCVInfo& i = r.opencvInfo;
  doc["opencv_info"] = {{"version", i.version},
                        {"threads", i.threads},
                        {"opencl_available", i.openclAvailable},
                        {"opencl_used", i.openclUsed},
                        {"opencl_device", i.openclDevice},
                        {"opencl_device_config", i.deviceConfig},
                        {"note", i.note}};
  doc["opencv"] = json::array();
  for (const auto& c : r.opencv) {
    const bool cmp = !c.oursMetric.empty();
    doc["opencv"].push_back({{"variant", c.variant},
                             {"size", c.size},
                             {"width", c.width},
                             {"height", c.height},
                             {"k", c.k},
                             {"device", c.device},
                             {"transfers", c.transfers},
                             {"status", c.status},
                             {"reason", c.reason},
                             {"ms_median", c.ms.median},
                             {"ms_p95", c.ms.p95},
                             {"samples", c.samples},
                             {"loop_mean_ms", orNull(c.loopMeanMs.has_value(), c.loopMeanMs.value_or(0))},
                             {"ours_strategy", c.oursStrategy},
                             {"ours_metric", c.oursMetric},
                             {"ours_ms", orNull(cmp, c.oursMs)},
                             {"speedup_of_ours", orNull(cmp && c.speedup > 0, c.speedup)}});
  }

  if (!r.launchFloor.empty()) doc["launch_floor"] = r.launchFloor;
  if (!r.ksweep.empty()) doc["ksweep"] = ksweepJson(r);
  if (r.soak) {
    const SoakReport& s = *r.soak;
    doc["soak"] = {{"strategy", s.strategy},
                   {"active", s.active},
                   {"size", s.size},
                   {"frames", s.frames},
                   {"rss_start_kib", s.rssStartKiB},
                   {"rss_after_first_frame_kib", s.rssAfterFirstKiB},
                   {"rss_end_kib", s.rssEndKiB},
                   {"rss_growth_kib", s.growthKiB},
                   {"frame_ms_median", s.frame.median},
                   {"frame_ms_p95", s.frame.p95},
                   {"notices", s.notices}};
  }
  if (!r.latency.empty()) {
    auto spread = [](const Spread& s) {
      return json{{"mean", s.mean}, {"p50", s.p50}, {"p95", s.p95}, {"max", s.max}};
    };
    doc["latency"] = json::array();
    for (const LatencyReport& l : r.latency) {
      json stages = json::object();
      for (const auto& [name, s] : l.stages) stages[name] = spread(s);
      doc["latency"].push_back({{"strategy", l.strategy},
                                {"active", l.active},
                                {"size", l.size},
                                {"width", l.width},
                                {"height", l.height},
                                {"fps", l.fps},
                                {"seconds", l.seconds},
                                {"duration_s", l.durationS},
                                {"pinned_staging", l.pinnedStaging},
                                {"pinned_buffers", l.pinnedBuffers},
                                {"frames_produced", l.produced},
                                {"frames_processed", l.processed},
                                {"frames_dropped", l.dropped},
                                {"latency_ms", spread(l.latency)},
                                {"stages_ms", stages},
                                {"notices", l.notices}});
      if (!l.edits.empty()) {
        json edits = json::array();
        for (const auto& [kind, ms] : l.edits)
          edits.push_back({{"kind", kind}, {"edit_to_display_ms", ms ? json(*ms) : json(nullptr)}});
        doc["latency"].back()["edit_to_display_ms"] = spread(l.editToDisplay);
        doc["latency"].back()["edits"] = edits;
      }
    }
  }
  return doc;
}

std::string toMarkdown(const BenchReport& r) {
  std::ostringstream md;
  const DeviceReport& d = r.device;
  md << "# ConvoLab benchmark\n\n";
  md << "- Device: " << d.name << " (" << d.platform << ", driver " << d.driver << "), spec " << d.spec
     << ", " << d.computeUnits << " compute units @ " << d.clockMHz << " MHz\n";
  md << "- FP32 peak: " << (d.peakGflops > 0 ? num(d.peakGflops, 1) + " GFLOP/s" : std::string("unknown"))
     << " (" << d.peakSource << ")";
  if (d.probeGflops) md << "; FMA probe measured " << num(*d.probeGflops, 1) << " GFLOP/s";
  md << "\n";
  if (r.config.contains("filter_description")) {
    md << "- Filter: " << r.config["filter_description"].get<std::string>() << ", border "
       << r.config["border"].get<std::string>() << "; ";
    if (r.config.contains("latency_seconds"))
      md << num(r.config["latency_seconds"].get<double>(), 1) << " s per size at "
         << num(r.config["latency_fps"].get<double>(), 1) << " frames/s after the preparation\n";
    else
      md << r.config["iterations"].get<int>() << " timed frames after " << r.config["warmup"].get<int>()
         << " warm-up\n";
  }
  for (const auto& [size, choice] : r.autoChoice) md << "- auto at " << size << ": " << choice << "\n";
  if (!r.opencvInfo.version.empty())
    md << "- OpenCV " << r.opencvInfo.version << ": CPU " << r.opencvInfo.threads << " threads, OpenCL "
       << (r.opencvInfo.openclUsed ? "on " + r.opencvInfo.openclDevice : std::string("not used"))
       << (r.opencvInfo.note.empty() ? "" : " (" + r.opencvInfo.note + ")") << "\n";

  if (r.soak) {
    const SoakReport& s = *r.soak;
    md << "\n## Soak\n\n| strategy | size | frames | RSS start KiB | RSS after 1st frame KiB | RSS end KiB | "
          "growth KiB | "
          "frame ms median | frame ms p95 |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
    md << "| " << s.active << " | " << s.size << " | " << s.frames << " | " << s.rssStartKiB << " | "
       << s.rssAfterFirstKiB << " | " << s.rssEndKiB << " | " << s.growthKiB << " | " << num(s.frame.median)
       << " | " << num(s.frame.p95) << " |\n";
    return md.str();
  }
  if (!r.latency.empty()) {
    md << "\n## Capture to display latency (the app's live path, no Qt)\n\n| size | fps | strategy | staging "
          "| "
          "latency ms mean | p50 | p95 | max | processed | dropped | mean ms: slot wait | upload | kernels | "
          "download | engine other | display | (fill) |\n"
          "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const LatencyReport& l : r.latency) {
      md << "| " << l.size << " | " << num(l.fps, 0) << " | " << l.active << " | "
         << (l.pinnedStaging ? "pinned" : "heap") << " | " << num(l.latency.mean) << " | "
         << num(l.latency.p50) << " | " << num(l.latency.p95) << " | " << num(l.latency.max) << " | "
         << l.processed << " | " << l.dropped << " |";
      for (const auto& [name, s] : l.stages)
        if (name != "fill") md << " " << num(s.mean) << " |";
      for (const auto& [name, s] : l.stages)
        if (name == "fill") md << " " << num(s.mean) << " |";
      md << "\n";
    }
    return md.str();
  }

  // One table per size; in a K sweep, per size and K.
  auto group = [sweep = !r.ksweep.empty()](const std::string& size, int k) {
    return sweep ? size + ", K " + std::to_string(k) : size;
  };
  std::vector<std::string> sizes;
  for (const auto& s : r.results)
    if (std::find(sizes.begin(), sizes.end(), group(s.size, s.k)) == sizes.end())
      sizes.push_back(group(s.size, s.k));
  md << ksweepMarkdown(r);
  for (const auto& size : sizes) {
    md << "\n## " << size << "\n\n";
    md << "| strategy | kernel ms (median) | kernel ms (p95) | upload ms | download ms | frame ms | Mpix/s | "
          "GFLOP/s | "
          "% of peak | max diff |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    std::vector<std::string> skipped;
    for (const auto& s : r.results) {
      if (group(s.size, s.k) != size) continue;
      if (s.status != "ok") {
        skipped.push_back(s.strategy + " (" + s.status + ": " + s.reason + ")");
        continue;
      }
      md << "| " << (s.active.empty() || s.active == s.strategy ? s.strategy : s.active) << " | "
         << num(s.kernel.median) << " | " << num(s.kernel.p95) << " | " << num(s.upload.median) << " | "
         << num(s.download.median) << " | " << num(s.frame.median) << " | " << num(s.mpixPerS, 1) << " | "
         << num(s.gflops, 1) << " | "
         << (s.peakFraction > 0 ? num(100 * s.peakFraction, 1) : std::string("-")) << " | "
         << (s.maxAbsDiff ? std::to_string(*s.maxAbsDiff) : std::string("-")) << " |\n";
    }
    bool endToEnd = false;
    for (const auto& s : r.results) {
      if (group(s.size, s.k) != size || s.status != "ok" || !s.pinnedFrame) continue;
      if (!endToEnd) {
        md << "\nEnd to end (one frame from pageable memory; from pinned memory: host wall and device span; "
              "a stream with copies and kernels of different frames overlapped):\n\n"
              "| strategy | frame ms (pageable) | frame ms (pinned) | device span ms (pinned) | stream "
              "frames/s |\n"
              "|---|---:|---:|---:|---:|\n";
        endToEnd = true;
      }
      md << "| " << (s.active.empty() || s.active == s.strategy ? s.strategy : s.active) << " | "
         << num(s.frame.median) << " | " << num(s.pinnedFrame->median) << " | " << num(s.pinnedDevice->median)
         << " | " << (s.streamFps ? num(*s.streamFps, 0) : std::string("-")) << " |\n";
    }
    bool loops = false;
    for (const auto& s : r.results) {
      if (group(s.size, s.k) != size) continue;
      for (const auto& l : s.loops) {
        if (!loops) {
          md << "\nBack-to-back launches on device buffers (--kernel-loop; event: median START->END of one "
                "launch; span: device time per launch over the whole loop):\n\n"
                "| strategy | variant | event ms (median) | event ms (min) | span ms / launch | wall ms / "
                "launch "
                "|\n|---|---|---:|---:|---:|---:|\n";
          loops = true;
        }
        md << "| " << s.strategy << " | " << (l.variant.empty() ? "(default)" : l.variant) << " | ";
        if (l.status != "ok") {
          md << l.status << " | | | |\n";
          continue;
        }
        md << num(l.eventMs, 4) << " | " << num(l.minEventMs, 4) << " | " << num(l.spanMs, 4) << " | "
           << num(l.wallMs, 4) << " |\n";
      }
    }
    for (const auto& f : r.launchFloor)
      if (f.value("size", "") == size)
        md << "\nLaunch floor (empty kernel, same queue): " << f.dump() << "\n";
    if (!skipped.empty()) {
      md << "\nNot timed:\n";
      for (const auto& s : skipped) md << "- " << s << "\n";
    }
    bool header = false;
    for (const auto& c : r.opencv) {
      if (group(c.size, c.k) != size) continue;
      if (!header) {
        md << "\n| OpenCV variant | device | ms (median) | ms (loop mean) | compared with | ours ms | ours "
              "faster by |\n"
              "|---|---|---:|---:|---|---:|---:|\n";
        header = true;
      }
      md << "| " << c.variant << " | " << c.device << " | " << num(c.ms.median) << " | "
         << (c.loopMeanMs ? num(*c.loopMeanMs) : std::string("-")) << " | "
         << (c.oursMetric.empty() ? std::string("-") : c.oursStrategy + " " + c.oursMetric) << " | "
         << (c.oursMetric.empty() ? std::string("-") : num(c.oursMs)) << " | "
         << (c.speedup > 0 ? num(c.speedup, 2) + "x" : std::string("-")) << " |\n";
    }
    bool cut = false;  // variants whose calls --opencv-budget cut
    for (const auto& c : r.opencv)
      if (group(c.size, c.k) == size && !c.reason.empty())
        md << (std::exchange(cut, true) ? "" : "\n") << "- " << c.variant << ": " << c.reason << "\n";
  }
  return md.str();
}

}  // namespace convolab::cli
