// SPDX-License-Identifier: MIT
// Statistics as text: the JSON of --stats and the plain text of the panel's "Copy" button.
#pragma once

#include <string>

#include "stats_collector.hpp"

namespace convolab::gui {

/// {source_fps, processed_fps, displayed_fps, dropped_frames, delivered_frames, stages: {upload:
/// {mean_ms, p95_ms}, <kernel>: {...}, download: {...}}, total: {...}, capture_to_display: {mean_ms, p95_ms,
/// samples}, host_ms, frame_budget_ms, device, strategy, frames}.
std::string statsJson(const StatsSnapshot& stats, const std::string& device, const std::string& strategy,
                      std::uint64_t frames);

/// A small table for people (pasted into issues and chats).
std::string statsText(const StatsSnapshot& stats, const std::string& device, const std::string& strategy);

}  // namespace convolab::gui
