// SPDX-License-Identifier: MIT
// EditTracker: feeds EditLatency from the pipeline's commits and the preview's paints, and shows it in the
// statistics panel ("Edit → screen").
#pragma once

#include <QObject>
#include <chrono>
#include <optional>

#include "stats/edit_latency.hpp"

namespace convolab::gui {

class Pipeline;
class PreviewWidget;
class StatsPanel;

/// Every filter snapshot the pipeline publishes (a bypass switch when its bypass flag changed) and every
/// strategy it is asked for from now on is an edit; made after the session is restored, so the start-up
/// filter is not one.
class EditTracker : public QObject {
  Q_OBJECT

 public:
  EditTracker(Pipeline* pipeline, PreviewWidget* preview, StatsPanel* panel, QObject* parent = nullptr);

  /// The newest edit committed (0: none yet).
  EditLatency::Ticket lastTicket() const { return m_lastTicket; }
  /// An edit that published nothing (it changed nothing): it reaches the screen with the next frame made
  /// with the current filter.
  EditLatency::Ticket commitUnchanged();
  /// See EditLatency::keep (scripted actions).
  void keep(EditLatency::Ticket ticket) { m_latency.keep(ticket); }
  EditLatencySummary summary() const { return m_latency.summary(); }
  /// Start-up: from the first painted picture (filtered or not) to the first painted frame made with the
  /// current filter (nullopt until then).
  std::optional<double> firstFilteredMs() const;
  /// Statistics ▸ Reset: the figures start afresh.
  void reset();

 signals:
  /// Edit `ticket` reached the screen `ms` after it was committed.
  void reached(convolab::gui::EditLatency::Ticket ticket, double ms);

 private:
  void show();

  Pipeline* m_pipeline;
  StatsPanel* m_panel;
  EditLatency m_latency;
  EditLatency::Ticket m_lastTicket = 0;
  bool m_bypass;
  std::optional<std::chrono::steady_clock::time_point> m_firstPicture, m_firstFiltered;
};

}  // namespace convolab::gui
