// SPDX-License-Identifier: MIT
// The statistics panel's feed: samples the pipeline into the collector and refreshes figures and chart.
#include "stats/stats_feed.hpp"

#include <QApplication>
#include <QClipboard>
#include <chrono>

#include "processing/pipeline.hpp"
#include "stats/stats_collector.hpp"
#include "stats/stats_panel.hpp"

namespace convolab::gui {

StatsFeed::StatsFeed(Pipeline* pipeline, StatsCollector* stats, StatsPanel* panel,
                     std::function<double()> sourceFps, QObject* parent)
    : QObject(parent),
      m_pipeline(pipeline),
      m_stats(stats),
      m_panel(panel),
      m_sourceFps(std::move(sourceFps)) {
  // The output sinks report their own figures; every snapshot reads them from the door.
  m_stats->setSinkSource([door = pipeline->outputDoor()] { return door->figures(); });
  m_figuresTimer.setInterval(1000);  // figures: once a second, readable
  connect(&m_figuresTimer, &QTimer::timeout, this, &StatsFeed::refreshFigures);
  m_figuresTimer.start();
  m_chartTimer.setInterval(250);  // chart: smooth enough, cheap
  connect(&m_chartTimer, &QTimer::timeout, this, &StatsFeed::refreshChart);
  m_chartTimer.start();
  connect(m_panel, &StatsPanel::resetRequested, this, &StatsFeed::reset);
  connect(m_panel, &StatsPanel::copyRequested, this, &StatsFeed::copy);
}

void StatsFeed::refreshFigures() {
  const auto now = std::chrono::steady_clock::now();
  m_stats->sampleSource(now, m_pipeline->framesDelivered(), m_pipeline->framesDropped(), m_sourceFps());
  m_panel->showStats(m_stats->snapshot(now));
}

void StatsFeed::refreshChart() {
  const auto now = std::chrono::steady_clock::now();
  const double fps = m_sourceFps();
  m_stats->sampleSource(now, m_pipeline->framesDelivered(), m_pipeline->framesDropped(), fps);
  if (!m_panel->isVisible()) return;
  const double budget = fps > 0 ? 1000.0 / fps : 0;
  m_panel->showHistory(m_stats->history(), m_stats->secondsSinceStart(now), budget);
}

void StatsFeed::reset() {
  m_stats->reset();
  m_pipeline->resetCounters();
  m_panel->clearChart();
  refreshFigures();
  emit wasReset();
  emit message(tr("Statistics reset"), 2000);
}

void StatsFeed::copy() {
  QApplication::clipboard()->setText(m_panel->text());
  emit message(tr("Statistics copied as text"), 2500);
}

}  // namespace convolab::gui
