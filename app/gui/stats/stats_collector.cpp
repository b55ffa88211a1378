// SPDX-License-Identifier: MIT
// Rolling statistics: frame rates from timestamps, stage times as current / mean / p95.
#include "stats/stats_collector.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "convolab/percentile.hpp"

namespace convolab::gui {

namespace {

double seconds(TimePoint a, TimePoint b) {
  return std::chrono::duration<double>(b - a).count();
}

TimePoint timeOf(TimePoint t) {
  return t;
}
template <class T>
TimePoint timeOf(const T& event) {
  return event.when;
}

// Rate of events with timestamps `times` (ascending) inside [from, to].
template <class Container>
double rateIn(const Container& times, TimePoint from) {
  auto first = std::lower_bound(times.begin(), times.end(), from,
                                [](const auto& e, TimePoint t) { return timeOf(e) < t; });
  const auto n = std::distance(first, times.end());
  if (n < 2) return 0;
  const double span = seconds(timeOf(*first), timeOf(times.back()));
  return span > 0 ? static_cast<double>(n - 1) / span : 0;
}

}  // namespace

StatsCollector::StatsCollector() {
  reset();
}

void StatsCollector::reset() {
  m_start = std::chrono::steady_clock::now();
  m_processed.clear();
  m_displayed.clear();
  m_source.clear();
  m_history.clear();
  m_run.clear();
  m_runDisplayed.clear();
  m_haveRunSource = false;
  m_processedTotal = 0;
  m_lastTimed.reset();
  m_lastDisplayed.reset();
  m_windows.reset();
}

double StatsCollector::secondsSinceStart(TimePoint when) const {
  return seconds(m_start, when);
}

void StatsCollector::trim(TimePoint now) {
  const auto cutoff = now - kHistory;
  while (!m_processed.empty() && m_processed.front().when < cutoff) m_processed.pop_front();
  while (!m_displayed.empty() && m_displayed.front().when < cutoff) m_displayed.pop_front();
  while (m_source.size() > 2 && m_source.front().when < cutoff) m_source.pop_front();
  const double tCut = secondsSinceStart(cutoff);
  while (!m_history.empty() && m_history.front().t < tCut) m_history.pop_front();
}

void StatsCollector::addProcessed(const FrameRecord& record) {
  ++m_processedTotal;
  Processed p{record.processed,   record.timings, record.hasTimings, record.bypassed,
              record.pinnedInput, record.repeat,  record.counted};
  // Only a timed newest pass stands for a still's numbers (not a bypassed or failed one).
  if (p.hasTimings)
    m_lastTimed = p;
  else
    m_lastTimed.reset();
  m_processed.push_back(p);
  if (m_keepRun) m_run.push_back(std::move(p));
  // The run's source counters start at its first processed frame: drops during warm-up (program builds,
  // auto's measurements) are not the steady state the summary describes.
  if (m_run.size() == 1) m_haveRunSource = false;
  if (m_keepRun && m_run.size() == 1) m_windows.start(record.processed);
  if (record.hasTimings) {
    StatsSample s;
    s.t = secondsSinceStart(record.processed);
    s.stages = record.timings.stages;
    for (const auto& st : s.stages) s.total += st.ms;
    m_history.push_back(std::move(s));
  }
  trim(record.processed);
}

void StatsCollector::addDisplayed(TimePoint when, TimePoint captured, double displayMs) {
  const double latency = captured == TimePoint{} || captured > when
                             ? -1.0
                             : std::chrono::duration<double, std::milli>(when - captured).count();
  m_displayed.push_back({when, latency, displayMs});
  // The chart's display line: on the newest frame's point (the one the preview just painted).
  if (displayMs >= 0 && !m_history.empty() && m_history.back().displayMs < 0)
    m_history.back().displayMs = displayMs;
  if (latency >= 0) m_lastDisplayed = Displayed{when, latency, displayMs};
  if (m_keepRun) m_runDisplayed.push_back({when, latency, displayMs});
  m_windows.addDisplayed(when);  // counts nothing before the run starts
}

StageSummary StatsCollector::displaySummary(const std::vector<const Displayed*>& frames) {
  std::vector<double> values;
  for (const Displayed* d : frames)
    if (d->displayMs >= 0) values.push_back(d->displayMs);
  return summarise("display", values, values.empty() ? 0 : values.back());
}

StageSummary StatsCollector::latencySummary(const std::vector<double>& values) {
  return summarise("capture to display", values, values.empty() ? 0 : values.back());
}

void StatsCollector::sampleSource(TimePoint when, std::uint64_t delivered, std::uint64_t dropped,
                                  double nominalFps) {
  m_nominalFps = nominalFps;
  // Counters restart with a new source: start the window afresh rather than report a negative rate.
  if (!m_source.empty() && delivered < m_source.back().delivered) m_source.clear();
  m_source.push_back({when, delivered, dropped});
  if (!m_haveRunSource || delivered < m_runLastSource.delivered) {
    m_runFirstSource = m_source.back();
    m_haveRunSource = true;
  }
  m_runLastSource = m_source.back();
  m_windows.sampleSource(when, delivered);
  trim(when);
}

StageSummary StatsCollector::summarise(const std::string& name, std::vector<double> values, double current) {
  StageSummary s;
  s.name = name;
  s.current = current;
  s.samples = static_cast<int>(values.size());
  if (values.empty()) return s;
  const SampleStats stats = SampleStats::of(std::move(values));
  s.mean = stats.mean;
  s.p95 = stats.p95;  // nearest rank
  return s;
}

void StatsCollector::summariseStages(const std::vector<const Processed*>& frames, StatsSnapshot& out,
                                     bool onlyNewestStages) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<double>> values;
  std::vector<double> totals, host;
  const Processed* newest = nullptr;
  for (const Processed* p : frames) {
    if (!p->hasTimings) continue;
    newest = p;
    double total = 0;
    for (const auto& st : p->timings.stages) {
      if (!values.count(st.name)) order.push_back(st.name);
      values[st.name].push_back(st.ms);
      total += st.ms;
    }
    totals.push_back(total);
    host.push_back(p->timings.hostMs);
  }
  // A still's last pass keeps the second up to it for its figures, but a kernel that no longer runs (a
  // matrix filter's convolve_dynamic after switching to a custom step) stayed in the table for good: the
  // window of the last pass never moves on. Live, such a row drops out when the window passes it.
  if (onlyNewestStages && newest)
    std::erase_if(order, [&](const std::string& name) {
      return std::none_of(newest->timings.stages.begin(), newest->timings.stages.end(),
                          [&](const StageTiming& st) { return st.name == name; });
    });
  // Keep upload first and download last even when the kernel names changed inside the window.
  std::stable_partition(order.begin(), order.end(), [](const std::string& n) { return n == "upload"; });
  std::stable_partition(order.begin(), order.end(), [](const std::string& n) { return n != "download"; });
  for (const auto& name : order) {
    double current = 0;
    if (newest)
      for (const auto& st : newest->timings.stages)
        if (st.name == name) current = st.ms;
    out.stages.push_back(summarise(name, values[name], current));
  }
  out.total = summarise("total", totals, totals.empty() ? 0 : totals.back());
  if (!host.empty()) {
    double sum = 0;
    for (double h : host) sum += h;
    out.hostMs = sum / static_cast<double>(host.size());
  }
  if (newest) {
    out.strategy = newest->timings.strategy.toString();
    out.strategyId = newest->timings.strategy;
    out.pinnedInput = newest->pinnedInput;
  }
}

StatsSnapshot StatsCollector::snapshot(TimePoint now, std::chrono::milliseconds window) const {
  StatsSnapshot s;
  const auto from = now - window;
  std::vector<TimePoint> processedTimes;
  std::vector<const Processed*> frames;
  for (const auto& p : m_processed)
    if (p.when >= from) {
      processedTimes.push_back(p.when);
      frames.push_back(&p);
    }
  s.processedFps = rateIn(processedTimes, from);
  s.displayedFps = rateIn(m_displayed, from);
  std::vector<double> latencies;
  for (const auto& d : m_displayed)
    if (d.when >= from && d.latencyMs >= 0) latencies.push_back(d.latencyMs);
  if (latencies.empty() && m_lastDisplayed) latencies.push_back(m_lastDisplayed->latencyMs);  // a still
  s.latency = latencySummary(latencies);
  std::vector<const Displayed*> shown;
  for (const auto& d : m_displayed)
    if (d.when >= from) shown.push_back(&d);
  if (shown.empty() && m_lastDisplayed) shown.push_back(&*m_lastDisplayed);
  s.display = displaySummary(shown);
  s.displayPath = m_displayPath;
  if (m_sinks) s.sinks = m_sinks();
  s.frameRateCap = m_frameRateCap;
  if (!m_source.empty()) {
    s.delivered = m_source.back().delivered;
    s.dropped = m_source.back().dropped;
    // Source rate from the counter samples that span the window.
    auto first =
        std::find_if(m_source.begin(), m_source.end(), [&](const SourceSample& x) { return x.when >= from; });
    if (first != m_source.begin()) --first;  // include the sample just before the window
    const double span = seconds(first->when, m_source.back().when);
    if (span > 0.2) s.sourceFps = static_cast<double>(m_source.back().delivered - first->delivered) / span;
    const auto recentDelivered = m_source.back().delivered - first->delivered;
    if (recentDelivered > 0)
      s.recentDropShare = static_cast<double>(m_source.back().dropped - first->dropped) /
                          static_cast<double>(recentDelivered);
  }
  s.nominalFps = m_nominalFps;
  if (frames.empty() && m_lastTimed) {
    // A still (or a paused source) between changes: its last pass keeps its numbers, the window ending
    // there, rather than an empty table and a strategy line that forgets what ran.
    s.lastPass = true;
    frames.clear();
    for (const auto& p : m_processed)
      if (p.when >= m_lastTimed->when - window && p.when <= m_lastTimed->when) frames.push_back(&p);
    if (frames.empty()) frames.push_back(&*m_lastTimed);
  }
  summariseStages(frames, s, s.lastPass);
  const double budgetFps = s.nominalFps > 0 ? s.nominalFps : s.sourceFps;
  s.budgetMs = budgetFps > 0 ? 1000.0 / budgetFps : 0;
  s.bypassed = !m_processed.empty() && m_processed.back().bypassed;
  return s;
}

StatsSnapshot StatsCollector::runSummary() const {
  StatsSnapshot s;
  std::vector<const Processed*> frames;
  for (size_t i = m_run.size() > 1 ? 1 : 0; i < m_run.size(); ++i) frames.push_back(&m_run[i]);
  summariseStages(frames, s);
  if (m_run.size() >= 2) {
    const TimePoint from = m_run.front().when, to = m_run.back().when;
    const double span = seconds(from, to);
    if (span > 0) {
      s.processedFps = static_cast<double>(m_run.size() - 1) / span;
      const auto displayed = std::count_if(m_runDisplayed.begin(), m_runDisplayed.end(),
                                           [&](const Displayed& d) { return d.when > from && d.when <= to; });
      s.displayedFps = static_cast<double>(displayed) / span;
    }
  }
  // Latency over the run, the first displayed frame excluded (it waited for the engine's first build).
  std::vector<double> latencies;
  std::vector<const Displayed*> shown;
  for (size_t i = 1; i < m_runDisplayed.size(); ++i) {
    if (m_runDisplayed[i].latencyMs >= 0) latencies.push_back(m_runDisplayed[i].latencyMs);
    shown.push_back(&m_runDisplayed[i]);
  }
  s.latency = latencySummary(latencies);
  s.display = displaySummary(shown);
  for (size_t i = 1; i < m_runDisplayed.size(); ++i)
    s.maxDisplayGapMs =
        std::max(s.maxDisplayGapMs, 1000 * seconds(m_runDisplayed[i - 1].when, m_runDisplayed[i].when));
  s.windows = m_windows.windows();
  s.displayPath = m_displayPath;
  if (m_sinks) s.sinks = m_sinks();
  s.frameRateCap = m_frameRateCap;
  for (const Processed& p : m_run) {
    if (p.repeat)
      ++s.repeated;
    else if (p.counted)
      ++s.counted;
    else
      ++s.warmUp;
  }
  if (m_haveRunSource) {
    const double span = seconds(m_runFirstSource.when, m_runLastSource.when);
    if (span > 0)
      s.sourceFps = static_cast<double>(m_runLastSource.delivered - m_runFirstSource.delivered) / span;
    // The slot's counts since the source opened (it counts nothing while processing warms up), the window
    // the counted frames come from: a difference from the first processed frame missed frames delivered
    // before that sample, and processed_frames exceeded delivered_frames.
    s.delivered = m_runLastSource.delivered;
    s.dropped = m_runLastSource.dropped;
  }
  s.nominalFps = m_nominalFps;
  const double budgetFps = s.nominalFps > 0 ? s.nominalFps : s.sourceFps;
  s.budgetMs = budgetFps > 0 ? 1000.0 / budgetFps : 0;
  return s;
}

}  // namespace convolab::gui
