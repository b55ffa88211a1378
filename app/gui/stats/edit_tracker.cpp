// SPDX-License-Identifier: MIT
// Edit → screen wiring: pipeline commits and preview paints into EditLatency, figures to the stats panel.
#include "stats/edit_tracker.hpp"

#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "stats/stats_panel.hpp"

namespace convolab::gui {

namespace {
auto now() {
  return std::chrono::steady_clock::now();
}
}  // namespace

EditTracker::EditTracker(Pipeline* pipeline, PreviewWidget* preview, StatsPanel* panel, QObject* parent)
    : QObject(parent), m_pipeline(pipeline), m_panel(panel), m_bypass(pipeline->bypass()) {
  connect(pipeline, &Pipeline::filterPublished, this, [this](std::uint64_t revision) {
    const bool bypassChanged = m_pipeline->bypass() != m_bypass;
    m_bypass = m_pipeline->bypass();
    m_lastTicket =
        m_latency.commitRevision(revision, bypassChanged ? EditKind::Bypass : EditKind::Filter, now());
  });
  connect(pipeline, &Pipeline::strategyRequested, this, [this](const StrategyId& strategy) {
    m_lastTicket = m_latency.commitStrategy(strategy.toString(), now());
  });
  connect(preview, &PreviewWidget::framePainted, this, [this](auto when, const FrameRecord& record) {
    if (!m_firstPicture) m_firstPicture = when;
    if (!m_firstFiltered && !record.stale && !record.unfiltered && record.error.isEmpty())
      m_firstFiltered = when;
    const auto reachedNow = m_latency.painted(record, when);
    for (const auto& [ticket, ms] : reachedNow) emit reached(ticket, ms);
    if (!reachedNow.empty()) show();
  });
}

EditLatency::Ticket EditTracker::commitUnchanged() {
  m_lastTicket = m_latency.commitRevision(m_pipeline->filterRevision(),
                                          m_pipeline->bypass() ? EditKind::Bypass : EditKind::Filter, now());
  return m_lastTicket;
}

std::optional<double> EditTracker::firstFilteredMs() const {
  if (!m_firstPicture || !m_firstFiltered) return std::nullopt;
  return std::chrono::duration<double, std::milli>(*m_firstFiltered - *m_firstPicture).count();
}

void EditTracker::reset() {
  m_latency.reset();
  show();
}

void EditTracker::show() {
  m_panel->showEditLatency(m_latency.summary());
}

}  // namespace convolab::gui
