// SPDX-License-Identifier: MIT
// StatsFeed: feeds the statistics panel from the collector and the pipeline's counters — the figures once a
// second, the chart four times a second — and carries out its Reset and Copy.
#pragma once

#include <QObject>
#include <QTimer>
#include <functional>

namespace convolab::gui {

class Pipeline;
class StatsCollector;
class StatsPanel;

class StatsFeed : public QObject {
  Q_OBJECT

 public:
  /// `sourceFps` is the source's nominal rate (the chart's frame budget; 0 when unknown).
  StatsFeed(Pipeline* pipeline, StatsCollector* stats, StatsPanel* panel, std::function<double()> sourceFps,
            QObject* parent = nullptr);

  /// Starts counting afresh (collector, pipeline counters, chart).
  void reset();
  /// Puts the panel's text on the clipboard.
  void copy();

 signals:
  void message(const QString& text, int ms);
  /// reset() started the statistics afresh (the edit → screen figures follow it).
  void wasReset();

 private:
  void refreshFigures();
  void refreshChart();

  Pipeline* m_pipeline;
  StatsCollector* m_stats;
  StatsPanel* m_panel;
  std::function<double()> m_sourceFps;
  QTimer m_figuresTimer;
  QTimer m_chartTimer;
};

}  // namespace convolab::gui
