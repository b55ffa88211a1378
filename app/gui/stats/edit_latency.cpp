// SPDX-License-Identifier: MIT
// Edit → screen bookkeeping: pending edits, which painted frame shows them, and the figures.
#include "stats/edit_latency.hpp"

#include <algorithm>

#include "convolab/strategy_id.hpp"

namespace convolab::gui {

EditLatency::Ticket EditLatency::commitRevision(std::uint64_t revision, EditKind kind, TimePoint when) {
  m_pending.push_back({++m_lastTicket, kind, revision, {}, when});
  forgetBeyondBound();
  return m_lastTicket;
}

EditLatency::Ticket EditLatency::commitStrategy(std::string name, TimePoint when) {
  m_pending.push_back({++m_lastTicket, EditKind::Strategy, 0, std::move(name), when});
  forgetBeyondBound();
  return m_lastTicket;
}

void EditLatency::keep(Ticket ticket) {
  for (Pending& edit : m_pending)
    if (edit.ticket == ticket) edit.kept = true;
}

void EditLatency::forgetBeyondBound() {
  const auto unkept = [](const Pending& edit) { return !edit.kept; };
  if (static_cast<std::size_t>(std::count_if(m_pending.begin(), m_pending.end(), unkept)) > kMaxPending)
    m_pending.erase(std::find_if(m_pending.begin(), m_pending.end(), unkept));
}

bool ranAsAsked(const std::string& asked, const StrategyId& ran) {
  if (asked == kAutoStrategy) return ran.isAuto();
  // The request is text ("tiled/b4x2-wg16x8"): compared by name and variant, as it ran. Comparing the text
  // with the name alone never matched a variant, and --stats reported such an action as null.
  const StrategyId id = StrategyId::parse(asked);
  return !ran.viaAuto && ran.name == id.name && (id.variant.empty() || ran.variant == id.variant);
}

std::string strategyNotShownReason(const std::string& asked, const StrategyId& ran) {
  if (ranAsAsked(asked, ran)) return {};
  return "not on screen: the engine ran " + ran.toString() + " instead (a fallback)";
}

bool EditLatency::shows(const Pending& edit, const FrameRecord& record) {
  if (edit.kind == EditKind::Strategy) {
    if (!record.hasTimings || record.processed < edit.when) return false;
    return ranAsAsked(edit.strategy, record.timings.strategy);
  }
  if (record.filterRevision < edit.revision || record.stale || record.unfiltered || !record.error.isEmpty())
    return false;
  return !record.bypassed || edit.kind == EditKind::Bypass;
}

std::vector<std::pair<EditLatency::Ticket, double>> EditLatency::painted(const FrameRecord& record,
                                                                         TimePoint when) {
  // The newest edit of each family this frame shows: it and every older edit of its family reach the screen.
  Ticket newestFilter = 0, newestStrategy = 0;
  for (const Pending& edit : m_pending)
    if (shows(edit, record)) (edit.kind == EditKind::Strategy ? newestStrategy : newestFilter) = edit.ticket;
  std::vector<std::pair<Ticket, double>> reached;
  if (newestFilter == 0 && newestStrategy == 0) return reached;
  std::deque<Pending> waiting;
  for (Pending& edit : m_pending) {
    if (edit.ticket > (edit.kind == EditKind::Strategy ? newestStrategy : newestFilter)) {
      waiting.push_back(std::move(edit));
      continue;
    }
    const double ms = std::max(0.0, std::chrono::duration<double, std::milli>(when - edit.when).count());
    reached.emplace_back(edit.ticket, ms);
  }
  m_pending = std::move(waiting);
  for (const auto& item : reached) {
    const double ms = item.second;
    ++m_summary.samples;
    m_sumMs += ms;
    m_summary.maxMs = std::max(m_summary.maxMs, ms);
    m_summary.lastMs = ms;  // oldest first: the newest edit's time is left
  }
  m_summary.meanMs = m_sumMs / m_summary.samples;
  return reached;
}

EditLatencySummary EditLatency::summary() const {
  return m_summary;
}

void EditLatency::reset() {
  m_summary = {};
  m_sumMs = 0;
}

}  // namespace convolab::gui
