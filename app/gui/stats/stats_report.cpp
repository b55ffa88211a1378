// SPDX-License-Identifier: MIT
// Statistics serialised with nlohmann_json, and as a fixed-width text table.
#include "stats/stats_report.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <variant>

namespace convolab::gui {

namespace {
double round3(double v) {
  return std::round(v * 1000.0) / 1000.0;
}

/// Each sink's figures under its key, nested in the figures named by `within` where those are present.
void addSinkFigures(nlohmann::ordered_json& j, const std::vector<output::SinkFigures>& sinks) {
  for (const output::SinkFigures& f : sinks) {
    nlohmann::ordered_json values = nlohmann::ordered_json::object();
    for (const auto& [name, value] : f.values)
      std::visit([&, &name = name](const auto& v) { values[name] = v; }, value);
    if (!f.within.empty() && j.contains(f.within))
      j[f.within][f.key] = values;
    else
      j[f.key] = values;
  }
}

/// One entry a window of the run; `partial` on the last when the run ended inside it.
nlohmann::ordered_json windowsJson(const std::vector<RunWindow>& windows) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const RunWindow& w : windows) {
    const auto ratio = w.ratio();
    out.push_back({{"start_s", round3(w.startS)},
                   {"seconds", round3(w.seconds)},
                   {"delivered_frames", w.delivered},
                   {"displayed_frames", w.displayed},
                   {"displayed_ratio", ratio ? nlohmann::ordered_json(round3(*ratio)) : nullptr},
                   {"max_display_gap_ms", round3(w.maxDisplayGapMs)}});
    if (w.partial) out.back()["partial"] = true;
  }
  return out;
}
}  // namespace

std::string statsJson(const StatsSnapshot& s, const std::string& device, const std::string& strategy,
                      std::uint64_t frames, const EditReport& edits) {
  nlohmann::ordered_json j;
  j["source_fps"] = round3(s.sourceFps);
  j["nominal_source_fps"] = round3(s.nominalFps);
  j["processed_fps"] = round3(s.processedFps);
  j["displayed_fps"] = round3(s.displayedFps);
  j["max_display_gap_ms"] = round3(s.maxDisplayGapMs);  // the longest freeze of the preview
  // Issue 35's "≥ 90 % of the source's frames over every 5 s window": the lowest window, the list at the end.
  j["window_s"] = RunWindows::kWindow.count();
  const auto lowest = RunWindows::minRatio(s.windows);
  j["min_window_displayed_ratio"] = lowest ? nlohmann::ordered_json(round3(*lowest)) : nullptr;
  j["dropped_frames"] = s.dropped;
  j["delivered_frames"] = s.delivered;
  j["processed_frames"] = frames;
  // Every pass is one of these: a counted delivery (at most delivered − dropped), a delivery while
  // processing warmed up (counted in neither), or the last frame again to show an edit or a new engine.
  j["counted_frames"] = s.counted;
  j["warmup_frames"] = s.warmUp;
  j["repeated_frames"] = s.repeated;
  nlohmann::ordered_json stages = nlohmann::ordered_json::object();
  for (const auto& st : s.stages)
    stages[st.name] = {{"mean_ms", round3(st.mean)}, {"p95_ms", round3(st.p95)}, {"samples", st.samples}};
  // The preview's upload and paint on the GUI thread, after the device stages (not in their total).
  if (s.display.samples > 0)
    stages["display"] = {{"mean_ms", round3(s.display.mean)},
                         {"p95_ms", round3(s.display.p95)},
                         {"samples", s.display.samples},
                         {"path", s.displayPath}};
  j["stages"] = stages;
  j["total"] = {{"mean_ms", round3(s.total.mean)}, {"p95_ms", round3(s.total.p95)}};
  j["capture_to_display"] = {
      {"mean_ms", round3(s.latency.mean)}, {"p95_ms", round3(s.latency.p95)}, {"samples", s.latency.samples}};
  const EditLatencySummary& e = edits.summary;
  j["edit_to_display"] = {{"mean_ms", e.samples > 0 ? nlohmann::ordered_json(round3(e.meanMs)) : nullptr},
                          {"max_ms", e.samples > 0 ? nlohmann::ordered_json(round3(e.maxMs)) : nullptr},
                          {"samples", e.samples}};
  j["first_filtered_ms"] =
      edits.firstFilteredMs ? nlohmann::ordered_json(round3(*edits.firstFilteredMs)) : nullptr;
  j["host_ms"] = round3(s.hostMs);
  j["frame_budget_ms"] = round3(s.budgetMs);
  j["device"] = device;
  j["strategy"] = strategy;
  j["active_strategy"] = s.strategy;
  if (!s.strategyId.note.empty()) j["strategy_note"] = s.strategyId.note;
  j["pinned_staging"] = s.pinnedInput;
  if (const auto& c = s.frameRateCap)
    j["frame_rate_cap"] = {
        {"limit_fps", round3(c->limitFps)}, {"method", c->method}, {"dropped", c->dropped}};
  addSinkFigures(j, s.sinks);
  if (edits.actions) {
    nlohmann::ordered_json actions = nlohmann::ordered_json::array();
    for (const ScriptActionResult& a : *edits.actions) {
      actions.push_back({{"index", a.index},
                         {"kind", a.kind},
                         {"edit_to_display_ms",
                          a.editToDisplayMs ? nlohmann::ordered_json(round3(*a.editToDisplayMs)) : nullptr}});
      if (!a.error.empty()) actions.back()["error"] = a.error;  // failed: never on screen
    }
    j["actions"] = actions;
  }
  j["windows"] = windowsJson(s.windows);
  return j.dump(2) + "\n";
}

std::string statsText(const StatsSnapshot& s, const std::string& device, const std::string& strategy,
                      bool still) {
  std::string out;
  char line[160];
  auto add = [&](const char* fmt, auto... args) {
    std::snprintf(line, sizeof line, fmt, args...);
    out += line;
  };
  add("ConvoLab statistics (last second)\n");
  add("device     %s\n", device.c_str());
  const std::string active = s.strategy.empty() ? std::string() : s.strategyId.describe();
  add("strategy   %s%s%s\n", strategy.c_str(), active.empty() ? "" : " -> ", active.c_str());
  // A still's repeats of one picture are no frames of its own: no rate, no drops (as the panel reads).
  if (still)
    add("source     still image\n");
  else
    add("source     %7.1f fps (nominal %.1f)\n", s.sourceFps, s.nominalFps);
  if (still && s.processedFps <= 0)
    add("processed  still image, idle\n");
  else
    add("processed  %7.1f fps\n", s.processedFps);
  add("displayed  %7.1f fps\n", s.displayedFps);
  const double pct =
      s.delivered ? 100.0 * static_cast<double>(s.dropped) / static_cast<double>(s.delivered) : 0.0;
  if (still)
    add("dropped    - (still image)\n");
  else
    add("dropped    %llu / %llu (%.1f %%)\n", static_cast<unsigned long long>(s.dropped),
        static_cast<unsigned long long>(s.delivered), pct);
  if (s.latency.samples > 0 && s.lastPass)  // a still between changes: its last change → screen, as the panel
    add("latency    %7.1f ms (last pass: change to display)\n", s.latency.current);
  else if (s.latency.samples > 0)
    add("latency    %7.1f ms mean, %.1f ms p95 (capture to display)\n", s.latency.mean, s.latency.p95);
  if (s.display.samples > 0)
    add("display    %7.2f ms mean, %.2f ms p95 (upload and paint on the GUI thread)\n", s.display.mean,
        s.display.p95);
  if (const auto& c = s.frameRateCap)
    add("fps limit  %7.1f fps (%s, %llu dropped)\n", c->limitFps, c->method.c_str(),
        static_cast<unsigned long long>(c->dropped));
  for (const output::SinkFigures& f : s.sinks) out += f.line + "\n";
  add("\n%-22s %9s %9s %9s%s\n", "stage (ms)", "current", "mean", "p95", s.lastPass ? "  (last pass)" : "");
  for (const auto& st : s.stages)
    add("%-22s %9.3f %9.3f %9.3f\n", st.name.c_str(), st.current, st.mean, st.p95);
  add("%-22s %9.3f %9.3f %9.3f\n", "total", s.total.current, s.total.mean, s.total.p95);
  if (still)
    add("%-22s %9s\n", "frame budget", "-");
  else
    add("%-22s %9.3f\n", "frame budget", s.budgetMs);
  return out;
}

}  // namespace convolab::gui
