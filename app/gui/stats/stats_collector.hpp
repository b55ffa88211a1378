// SPDX-License-Identifier: MIT
// StatsCollector: rolling per-frame statistics (FPS, drops, per-stage device times) for the panel and
// --stats.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "output/sink_figures.hpp"
#include "processing/frame_rate_cap.hpp"
#include "processing/processed_frame.hpp"
#include "stats/run_windows.hpp"

namespace convolab::gui {

using TimePoint = std::chrono::steady_clock::time_point;

struct StageSummary {
  std::string name;
  double current = 0;  ///< the newest frame's value, ms
  double mean = 0;     ///< over the window, ms
  double p95 = 0;      ///< over the window, ms
  int samples = 0;
};

/// What the stats panel shows, over the last second.
struct StatsSnapshot {
  double sourceFps = 0;              ///< measured from frames the source delivered
  double nominalFps = 0;             ///< what the source says it delivers
  double processedFps = 0;           ///< frames through the engine
  double displayedFps = 0;           ///< frames the preview painted
  std::uint64_t dropped = 0;         ///< since the source opened (or Reset)
  std::uint64_t delivered = 0;       ///< since the source opened (or Reset)
  double recentDropShare = 0;        ///< share of the window's delivered frames that were dropped, 0..1
  std::vector<StageSummary> stages;  ///< upload, kernels in order, download
  StageSummary total;                ///< sum of the stages per frame
  StageSummary latency;              ///< capture → display (painted) per displayed frame, ms
  /// The preview's upload and paint of each displayed frame on the GUI thread, ms (no samples: not measured).
  StageSummary display;
  std::string displayPath;  ///< which preview back-end paints ("OpenGL 4.5 · llvmpipe …", "Raster …")
  double hostMs = 0;        ///< mean wall time of Engine::process
  double budgetMs = 0;      ///< 1000 / source fps (0 when unknown)
  std::string strategy;     ///< active strategy of the newest frame (StrategyId::toString)
  StrategyId strategyId;    ///< the same, typed, with its note (describe(): what people see)
  bool bypassed = false;
  bool pinnedInput = false;  ///< the newest frame was uploaded from pinned staging memory
  /// No frame was processed in the window: a still or paused source between changes. The stages and the
  /// strategy are then those of the last pass (and the second up to it), and with nothing painted either the
  /// latency is the last painted frame's, not zeros.
  bool lastPass = false;
  /// Whole run only (runSummary): every pass is one of these three. `counted`: delivered frames the slot
  /// counted (never more than delivered − dropped); `warmUp`: delivered while processing warmed up, counted
  /// in neither delivered nor dropped; `repeated`: the last input again without a delivery (an edit or a new
  /// engine shown on a still or paused frame).
  std::uint64_t counted = 0, warmUp = 0, repeated = 0;
  /// Whole run only: the longest time between two painted frames, ms (a frozen preview: issue 35).
  double maxDisplayGapMs = 0;
  /// Whole run only: the run in consecutive RunWindows::kWindow windows (delivered, displayed, longest gap).
  std::vector<RunWindow> windows;
  /// The output sinks' figures (virtual camera, loopback, recording: whichever are on), in the order added.
  std::vector<output::SinkFigures> sinks;
  std::optional<FrameRateCapFigures> frameRateCap;  ///< unset without Processing ▸ Limit Frame Rate
};

/// One point of the chart: a frame's time (seconds since the collector started) and stage times.
struct StatsSample {
  double t = 0;
  std::vector<StageTiming> stages;
  double total = 0;
  /// The preview's upload and paint on the GUI thread once this frame (the newest processed when the paint
  /// came) was painted, ms; < 0: not painted (yet), or not measured. Not part of `total` (another thread).
  double displayMs = -1;
};

/// Lives on the GUI thread. Keeps the last ~10 s of frames for the panel and chart, and every frame's
/// timings since reset() for the end-of-run summary (--stats).
class StatsCollector {
 public:
  static constexpr std::chrono::seconds kHistory{10};

  StatsCollector();

  /// Whole-run bookkeeping for runSummary() (--stats) grows with every frame (its stage and latency
  /// percentiles keep each frame's values: about 40 MB an hour at 30 fps; the 5 s windows do not grow so):
  /// off unless asked for.
  void setKeepRun(bool keep) { m_keepRun = keep; }

  void addProcessed(const FrameRecord& record);
  /// A frame reached the screen at `when`; `captured`: when the source delivered it (latency; ignored when
  /// unset); `displayMs`: the GUI thread's upload and paint of it (< 0: unknown).
  void addDisplayed(TimePoint when, TimePoint captured = {}, double displayMs = -1);
  /// The preview back-end, reported with the display stage.
  void setDisplayPath(const std::string& path) { m_displayPath = path; }
  /// Where the output sinks' figures come from (read by every snapshot; the pipeline's output door).
  void setSinkSource(std::function<std::vector<output::SinkFigures>()> source) {
    m_sinks = std::move(source);
  }
  void setFrameRateCap(std::optional<FrameRateCapFigures> figures) { m_frameRateCap = std::move(figures); }
  /// Source counters (delivered, dropped) sampled from the pipeline; `nominalFps` from the source.
  void sampleSource(TimePoint when, std::uint64_t delivered, std::uint64_t dropped, double nominalFps);
  void reset();

  /// Figures over [now − window, now].
  StatsSnapshot snapshot(TimePoint now,
                         std::chrono::milliseconds window = std::chrono::milliseconds(1000)) const;
  /// Whole-run figures since reset(), the first processed frame excluded from stage times (warm-up).
  StatsSnapshot runSummary() const;
  /// Chart points of the last kHistory.
  const std::deque<StatsSample>& history() const { return m_history; }
  double secondsSinceStart(TimePoint when) const;
  std::uint64_t processedTotal() const { return m_processedTotal; }

 private:
  struct Processed {
    TimePoint when;
    FrameTimings timings;
    bool hasTimings;
    bool bypassed;
    bool pinnedInput;
    bool repeat;
    bool counted;
  };
  struct SourceSample {
    TimePoint when;
    std::uint64_t delivered, dropped;
  };
  void trim(TimePoint now);
  static StageSummary summarise(const std::string& name, std::vector<double> values, double current);
  /// `onlyNewestStages`: rows only for the newest frame's stages (a last pass: the others were not seen in
  /// the window ending now).
  static void summariseStages(const std::vector<const Processed*>& frames, StatsSnapshot& out,
                              bool onlyNewestStages = false);

  TimePoint m_start;
  std::deque<Processed> m_processed;  // last kHistory
  struct Displayed {
    TimePoint when;
    double latencyMs;       // < 0: unknown
    double displayMs = -1;  // < 0: unknown
  };
  static StageSummary displaySummary(const std::vector<const Displayed*>& frames);
  static StageSummary latencySummary(const std::vector<double>& values);

  std::deque<Displayed> m_displayed;  // last kHistory
  std::deque<SourceSample> m_source;  // last kHistory
  std::deque<StatsSample> m_history;  // last kHistory
  std::vector<Processed> m_run;       // since reset: ~0.4 KB a frame (three stages, heap included)
  std::vector<Displayed> m_runDisplayed;
  SourceSample m_runFirstSource{}, m_runLastSource{};
  bool m_haveRunSource = false;
  bool m_keepRun = false;
  double m_nominalFps = 0;
  std::string m_displayPath;
  std::function<std::vector<output::SinkFigures>()> m_sinks;
  std::optional<FrameRateCapFigures> m_frameRateCap;
  std::uint64_t m_processedTotal = 0;
  // The newest timed frame and the newest painted one: what a still shows after they left the window.
  std::optional<Processed> m_lastTimed;
  std::optional<Displayed> m_lastDisplayed;
  RunWindows m_windows;  // the run's 5 s windows: a few numbers each (--stats)
};

}  // namespace convolab::gui
