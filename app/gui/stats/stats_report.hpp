// SPDX-License-Identifier: MIT
// Statistics as text: the JSON of --stats and the plain text of the panel's "Copy" button.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "stats/edit_latency.hpp"
#include "stats/stats_collector.hpp"

namespace convolab::gui {

/// The edit → screen part of --stats.
struct EditReport {
  EditLatencySummary summary;
  std::optional<std::vector<ScriptActionResult>> actions;  ///< a --script run: one per scripted action
  std::optional<double> firstFilteredMs;  ///< first picture → first filtered frame on screen (start-up)
};

/// {source_fps, processed_fps, displayed_fps, max_display_gap_ms (the longest time between two painted
/// frames), window_s (5), min_window_displayed_ratio (the lowest displayed / delivered over the complete
/// windows; null if none), dropped_frames, delivered_frames, stages: {upload:
/// {mean_ms, p95_ms}, <kernel>: {...}, download: {...}, display: {..., path} (the preview's upload and paint
/// on the GUI thread; when measured, not in total)}, total: {...}, capture_to_display: {mean_ms, p95_ms,
/// samples}, edit_to_display: {mean_ms, max_ms, samples} (null times without samples), first_filtered_ms
/// (first picture on screen → first frame made with the filter on screen; null if none), host_ms,
/// frame_budget_ms, device, strategy, active_strategy, strategy_note (when there is one), pinned_staging,
/// actions (with --script: [{index, kind, edit_to_display_ms (null: never reached the screen)}]),
/// and each output sink that is on under its key (output::SinkFigures): virtual_camera {viewers, fps (last
/// second), sent, dropped, format, loopback {device, written, dropped, error} where one is fed}, recording
/// {path, written, dropped}, and frame_rate_cap
/// (while Processing ▸ Limit Frame Rate is set: {limit_fps, method: "camera mode" or "drop before upload",
/// dropped}), and last windows: the run from its first processed frame in consecutive window_s windows,
/// [{start_s, seconds, delivered_frames, displayed_frames, displayed_ratio (null: none delivered),
/// max_display_gap_ms (the longest gap overlapping it), partial (only on a last window the run ended in)}]}.
std::string statsJson(const StatsSnapshot& stats, const std::string& device, const std::string& strategy,
                      std::uint64_t frames, const EditReport& edits = {});

/// A small table for people (pasted into issues and chats). `still`: the source is a still image (or a
/// one-frame clip, or idle between changes): it says so, as the panel does, instead of a rate, drops and a
/// frame budget the source does not have.
std::string statsText(const StatsSnapshot& stats, const std::string& device, const std::string& strategy,
                      bool still = false);

}  // namespace convolab::gui
