// SPDX-License-Identifier: MIT
// EditLatency: "edit → screen", from an edit's commit to the first painted frame computed with it.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "processing/processed_frame.hpp"

namespace convolab::gui {

/// What an edit changed: the filter (a new snapshot), bypass (a snapshot too) or the strategy.
enum class EditKind { Filter, Bypass, Strategy };

/// The figures over the edits that reached the screen since the last reset.
struct EditLatencySummary {
  int samples = 0;
  double lastMs = 0;  ///< the newest edit that reached the screen
  double maxMs = 0;
  double meanMs = 0;
};

/// One scripted action as --stats reports it: its index in the script, its kind, its edit → screen time
/// (nullopt: it never reached the screen).
struct ScriptActionResult {
  int index = 0;
  std::string kind;
  std::optional<double> editToDisplayMs;
  std::string error;  ///< the action failed (e.g. its filter no longer imports): it never reached the screen
};

/// Whether a frame that ran `ran` shows the strategy request `asked` (its text: "auto", "tiled",
/// "tiled/b4x2-wg16x8"): auto accepts whatever auto ran; a name, that strategy not chosen by auto, of the
/// variant asked for if one was.
bool ranAsAsked(const std::string& asked, const StrategyId& ran);
/// Why the request `asked` never reached the screen when the newest painted frame ran `ran`, for --stats:
/// "not on screen: the engine ran naive instead (a fallback)"; empty when `ran` is what was asked.
std::string strategyNotShownReason(const std::string& asked, const StrategyId& ran);

/// Pure bookkeeping (no Qt, no clock of its own), fed by EditTracker. An edit reaches the screen when the
/// preview first paints a frame computed with it:
/// - a filter edit published as revision R: a frame with filterRevision ≥ R that is neither stale, nor
///   unfiltered, nor failed, nor bypassed (a bypass edit accepts bypassed frames);
/// - a strategy request S at time T: a frame processed at or after T whose timings name S (for "auto": any
///   frame auto ran, StrategyId::isAuto());
/// - an edit superseded by a newer one of the same family (filter/bypass, or strategy) before any of its
///   frames was painted reaches the screen with the first frame of the newer one (that frame includes it).
class EditLatency {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  using Ticket = std::uint64_t;  ///< names one edit: 1, 2, … in commit order
  /// Edits still waiting for the screen beyond this are forgotten, oldest first (a hidden preview paints
  /// nothing; typing must not grow memory). Kept edits (keep()) do not count and are never forgotten.
  static constexpr std::size_t kMaxPending = 1000;

  /// A filter snapshot (kind Filter or Bypass) was published as `revision` at `when`.
  Ticket commitRevision(std::uint64_t revision, EditKind kind, TimePoint when);
  /// Strategy `name` was asked for at `when`.
  Ticket commitStrategy(std::string name, TimePoint when);
  /// Keeps `ticket` pending past kMaxPending until the screen shows it: a scripted action, whose time --stats
  /// reports (beyond 1,000 pending ones came out as null). The script's size bounds how many there are.
  void keep(Ticket ticket);
  /// The preview painted a frame computed as `record` says at `when`. Returns the edits that reached the
  /// screen with it, oldest first, with their edit → screen time in ms.
  std::vector<std::pair<Ticket, double>> painted(const FrameRecord& record, TimePoint when);

  EditLatencySummary summary() const;
  std::size_t pending() const { return m_pending.size(); }
  /// Forgets the figures (edits still pending stay pending and count once they reach the screen).
  void reset();

 private:
  struct Pending {
    Ticket ticket;
    EditKind kind;
    std::uint64_t revision;  // Filter, Bypass
    std::string strategy;    // Strategy
    TimePoint when;
    bool kept = false;
  };
  static bool shows(const Pending& edit, const FrameRecord& record);
  void forgetBeyondBound();  // the oldest edit not kept, while more than kMaxPending are not kept

  std::deque<Pending> m_pending;  // commit order
  Ticket m_lastTicket = 0;
  EditLatencySummary m_summary;
  double m_sumMs = 0;
};

}  // namespace convolab::gui
